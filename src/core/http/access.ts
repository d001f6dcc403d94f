import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionAuth } from '../accounts/service.js';
import { refuseCrossSiteWrite, sessionTokenOf } from '../accounts/cookies.js';
import type { Authenticator } from '../identity/authenticator.js';
import type { Principal, Role } from '../identity/roles.js';
import { errors } from './errors.js';

/** Who may call a route: `public`, or the roles allowed. Every /api route must declare it. */
export type Access = 'public' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The caller of a route that declared roles; the access hook has already authenticated it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw errors.unauthorized();
  return request.principal;
}

/**
 * The one place roles are enforced: before the body is read, a route's declared access is
 * checked against the caller (401 without a valid credential, 403 for a role not listed).
 */
export interface SessionAuthenticator {
  authenticate(token: string): Promise<SessionAuth | null>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A bearer credential (API key or JWT) wins when present; without one, the session cookie of the
 * web app stands for the same principal, and its writes must prove they come from our pages.
 */
export function registerAccessControl(
  app: FastifyInstance,
  authenticator: Authenticator,
  sessions?: SessionAuthenticator,
  options: { publicUrl?: string } = {},
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (access === undefined && route.url.startsWith('/api/')) {
      throw new Error(`Route ${route.method} ${route.url} declares no access; add config.access.`);
    }
  });
  // Callback style: a credential found in the cache is settled without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return done();
    const admit = (principal: Principal | null | undefined): Error | undefined => {
      if (!principal) return errors.unauthorized();
      request.principal = principal;
      return access.includes(principal.role) ? undefined : errors.forbidden(`This operation needs one of the roles: ${access.join(', ')}.`);
    };
    const session = request.headers.authorization === undefined && sessions ? sessionTokenOf(request) : undefined;
    if (session !== undefined && sessions) {
      sessions.authenticate(session).then((auth) => {
        if (!auth) return done(errors.unauthorized());
        const refused = SAFE_METHODS.has(request.method) ? undefined : refuseCrossSiteWrite(request, auth.csrfToken, options.publicUrl);
        done(refused ?? admit(auth.principal));
      }, done);
      return;
    }
    const hit = authenticator.cached(request.headers.authorization);
    if (hit) return done(admit(hit));
    authenticator.authenticate(request.headers.authorization).then((p) => done(admit(p)), done);
  });
}
