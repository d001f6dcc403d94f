import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setSessionCookies } from '../core/accounts/cookies.js';
import type { ClientInfo } from '../core/accounts/service.js';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { CALLBACK_PATH, type SsoService } from './service.js';
import { SsoCallbackQuery, SsoConfig, SsoConfigBody, SsoEventList, SsoEventQuery, SsoStartQuery } from './schemas.js';
import { FLOW_MS, SsoRefusal, type SsoSignIn } from './sign-in.js';

const owners = ['owner'] as const;
const config = Type.Ref(SsoConfig);
const tags = ['sso'];
/** The browser's proof that it started the sign-in the callback finishes; sent only to /api/v0/sso. */
const FLOW_COOKIE = 'orgctl_sso_flow';
const FLOW_PATH = '/api/v0/sso';

const secure = (request: FastifyRequest) => request.protocol === 'https' || request.appUrl.startsWith('https://');

/** Back to the login page, which shows what `sso_error` means. The reason is a word; its detail stays in the audit log. */
function toLogin(request: FastifyRequest, reply: FastifyReply, refusal: SsoRefusal) {
  request.log.info({ ssoRefusal: refusal.reason }, 'single sign-on refused');
  return reply.redirect(`${request.appUrl}/login?sso_error=${encodeURIComponent(refusal.reason)}`, 302);
}

/** Single sign-on: the owners' configuration and events, and the two public steps of a sign-in (docs/sso.md). */
export const ssoRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService; ssoSignIn: SsoSignIn }> = async (app, { sso, ssoSignIn }) => {
  app.addSchema(SsoConfig);
  app.get(
    '/api/v0/organization/sso',
    {
      config: { access: owners },
      schema: {
        operationId: 'sso.get',
        tags,
        summary: "The organization's OpenID Connect configuration (owners; never the client secret)",
        response: { 200: config, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => sso.get(principalOf(request).orgId, request.appUrl),
  );
  app.put(
    '/api/v0/organization/sso',
    {
      config: { access: owners },
      schema: {
        operationId: 'sso.put',
        tags,
        summary: 'Configure OpenID Connect sign-in (owners): the provider is discovered first, through the network guard',
        body: SsoConfigBody,
        response: { 200: config, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    async (request) => sso.put(principalOf(request), request.body, request.appUrl),
  );
  app.delete(
    '/api/v0/organization/sso',
    {
      config: { access: owners },
      schema: {
        operationId: 'sso.delete',
        tags,
        summary: 'Remove the OpenID Connect configuration: passwords work again for everyone',
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await sso.delete(principalOf(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/v0/organization/sso/events',
    {
      config: { access: owners },
      schema: {
        operationId: 'sso.events',
        tags,
        summary: 'Sign-in events, newest first (owners): successes, failures with their reason, just-in-time creations, mapping changes, break-glass',
        querystring: SsoEventQuery,
        response: { 200: SsoEventList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => sso.events(principalOf(request).orgId, request.query.limit, request.query.cursor),
  );
  app.get(
    '/api/v0/sso/start',
    {
      config: { access: 'public', rateClass: 'sign-in' },
      schema: {
        operationId: 'sso.start',
        tags,
        summary: "Start signing in with SSO: redirects to the identity provider of the email's domain (or back to /login?sso_error=)",
        security: [],
        querystring: SsoStartQuery,
        response: {
          302: Type.Null({ description: "Location: the provider's authorization URL, or the login page with sso_error" }),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const started = await ssoSignIn.start(request.query.email, request.appUrl);
      if (started instanceof SsoRefusal) return toLogin(request, reply, started);
      reply.setCookie(FLOW_COOKIE, started.flowToken, {
        path: FLOW_PATH,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET from another site.
        sameSite: 'lax',
        secure: secure(request),
        maxAge: FLOW_MS / 1000,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(started.url, 302);
    },
  );
  app.get(
    CALLBACK_PATH,
    {
      config: { access: 'public', rateClass: 'sign-in' },
      schema: {
        operationId: 'sso.callback',
        tags,
        summary: "The identity provider's redirect back: checks the code, state, nonce and ID token, then signs in",
        security: [],
        querystring: SsoCallbackQuery,
        response: { 302: Type.Null({ description: 'Location: the web app signed in, or the login page with sso_error' }), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const client: ClientInfo = { ip: request.ip, userAgent: request.headers['user-agent'] };
      const result = await ssoSignIn.callback(request.cookies?.[FLOW_COOKIE], request.query as Record<string, string>, request.appUrl, client);
      reply.clearCookie(FLOW_COOKIE, { path: FLOW_PATH, httpOnly: true, sameSite: 'lax', secure: secure(request) });
      if (result instanceof SsoRefusal) return toLogin(request, reply, result);
      setSessionCookies(request, reply, result);
      return reply.redirect(`${request.appUrl}/`, 302);
    },
  );
};
