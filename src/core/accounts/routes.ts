import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../http/access.js';
import { errorResponses } from '../http/error-schema.js';
import { access, type Principal } from '../identity/roles.js';
import { clearSessionCookies, refuseCrossSiteSignIn, sessionTokenOf, setSessionCookies } from './cookies.js';
import {
  AcceptBody,
  CreatedInvitation,
  MemberIdParams,
  SessionIdParams,
  InvitationIdParams,
  InvitationList,
  InviteBody,
  LoginBody,
  Member,
  MemberList,
  PasswordBody,
  RoleBody,
  SessionInfo,
  SessionList,
  SetupBody,
} from './schemas.js';
import type { AccountsService, ClientInfo, SignedIn } from './service.js';
import { csrfTokenOf } from './secrets.js';

const tags = ['sessions'];
const client = (request: FastifyRequest): ClientInfo => ({ ip: request.ip, userAgent: request.headers['user-agent'], previousToken: sessionTokenOf(request) });

const info = (
  p: Pick<Principal, 'id' | 'kind' | 'email' | 'name' | 'role' | 'orgId' | 'orgName'>,
  credential: 'session' | 'api_key' | 'jwt',
  csrfToken: string | null,
) => ({
  principalId: p.id,
  kind: p.kind,
  email: p.email,
  name: p.name,
  role: p.role,
  organization: { id: p.orgId, name: p.orgName },
  credential,
  csrfToken,
});

function signedIn(request: FastifyRequest, reply: FastifyReply, s: SignedIn) {
  setSessionCookies(request, reply, s);
  return info(s.principal, 'session', s.csrfToken);
}

/**
 * Web sign-in and the settings pages' endpoints: documented API endpoints like any other, with
 * the same error object and role rules. Invitation links point at `request.appUrl`.
 */
export const accountsRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get(
    '/api/v0/session',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'session.get',
        tags,
        summary: 'Who is signed in, and the CSRF token of the session',
        response: { 200: SessionInfo, ...errorResponses(401) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const token = p.credential.type === 'session' ? sessionTokenOf(request) : undefined;
      return info(p, p.credential.type, token === undefined ? null : csrfTokenOf(token));
    },
  );
  app.post(
    '/api/v0/session/setup',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'session.setup',
        tags,
        summary: "First run: set the first owner's password with the setup token `orgctl serve` printed; then setup locks",
        body: SetupBody,
        response: { 200: SessionInfo, ...errorResponses(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(request);
      return signedIn(request, reply, await accounts.setup(request.body.token, request.body.password, client(request)));
    },
  );
  app.post(
    '/api/v0/session/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'session.login',
        tags,
        summary: 'Sign in with email and password: sets the session cookie (limited per address and per account)',
        body: LoginBody,
        response: { 200: SessionInfo, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(request);
      return signedIn(request, reply, await accounts.login(request.body.email, request.body.password, client(request)));
    },
  );
  app.post(
    '/api/v0/session/logout',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'session.logout',
        tags,
        summary: 'Sign out: ends this session and clears its cookies',
        response: { 204: Type.Null({ description: 'Signed out' }), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      if (principalOf(request).credential.type === 'session') await accounts.logout(sessionTokenOf(request));
      clearSessionCookies(request, reply);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/v0/sessions',
    {
      config: { access: access.anyone },
      schema: { operationId: 'sessions.list', tags, summary: "The caller's own signed-in sessions", response: { 200: SessionList, ...errorResponses(401) } },
    },
    async (request) => ({ sessions: await accounts.sessions(principalOf(request)) }),
  );
  app.delete(
    '/api/v0/sessions/:id',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'sessions.revoke',
        tags,
        summary: 'End one of your own sessions',
        params: SessionIdParams,
        response: { 204: Type.Null({ description: 'Ended' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await accounts.revokeSession(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/v0/me/password',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'session.changePassword',
        tags,
        summary: 'Change your own password; ends all your sessions (a session caller gets a new one)',
        body: PasswordBody,
        response: { 204: Type.Null({ description: 'Changed' }), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const renewed = await accounts.changePassword(principalOf(request), request.body.currentPassword, request.body.newPassword, client(request));
      if (renewed) setSessionCookies(request, reply, renewed);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v0/organization/invitations',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'invitations.create',
        tags: ['members'],
        summary: 'Invite someone: a one-time link, valid 7 days (owner or manager; never above your own role)',
        body: InviteBody,
        response: { 201: CreatedInvitation, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const actor = principalOf(request);
      const { invitation, token } = await accounts.invite(actor, actor.orgId, request.body);
      return reply.code(201).send({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        createdAt: invitation.created_at.getTime(),
        expiresAt: invitation.expires_at.getTime(),
        token,
        url: `${request.appUrl}/invite/${token}`,
      });
    },
  );
  app.get(
    '/api/v0/organization/invitations',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'invitations.list',
        tags: ['members'],
        summary: 'Invitations not yet accepted and not expired',
        response: { 200: InvitationList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({
      invitations: (await accounts.pendingInvitations(principalOf(request).orgId)).map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        createdAt: i.created_at.getTime(),
        expiresAt: i.expires_at.getTime(),
      })),
    }),
  );
  app.delete(
    '/api/v0/organization/invitations/:id',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'invitations.revoke',
        tags: ['members'],
        summary: 'Revoke an invitation not yet accepted: its link stops working (owner or manager; never above your own role)',
        params: InvitationIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await accounts.revokeInvitation(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/v0/invitations/accept',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'invitations.accept',
        tags: ['members'],
        summary: 'Accept an invitation: creates the user with this password and signs them in',
        body: AcceptBody,
        response: { 200: SessionInfo, ...errorResponses(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(request);
      return signedIn(request, reply, await accounts.acceptInvitation(request.body.token, request.body.password, request.body.name, client(request)));
    },
  );
  app.get(
    '/api/v0/organization/members',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'members.list',
        tags: ['members'],
        summary: 'The users of the organization (owner or manager)',
        response: { 200: MemberList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ members: await accounts.members(principalOf(request).orgId) }),
  );
  app.patch(
    '/api/v0/organization/members/:id',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'members.setRole',
        tags: ['members'],
        summary: "Change a member's role; their sessions end at once (never on or to a role above yours; the last owner stays)",
        params: MemberIdParams,
        body: RoleBody,
        response: { 200: Member, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      await accounts.changeRole(actor, request.params.id, request.body.role);
      const member = (await accounts.members(actor.orgId)).find((m) => m.id === request.params.id);
      return member!;
    },
  );
  app.delete(
    '/api/v0/organization/members/:id',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'members.remove',
        tags: ['members'],
        summary: 'Remove a member with their keys and sessions (never above your role; the last owner stays)',
        params: MemberIdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await accounts.removeMember(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
