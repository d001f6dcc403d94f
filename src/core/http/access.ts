import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionAuth } from '../accounts/service.js';
import { refuseCrossSiteWrite, sessionTokenOf } from '../accounts/cookies.js';
import type { Authenticator } from '../identity/authenticator.js';
import type { Principal, Role } from '../identity/roles.js';
import { scopeAdmits, SCOPES, type RouteScope } from '../identity/scopes.js';
import { errors } from './errors.js';

/** Who may call a route: `public`, or the roles allowed. Every /api route must declare it. */
export type Access = 'public' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The narrow scope that also admits a key carrying it (docs/identity-and-access.md, Scopes); without one, only `full` credentials pass. */
    scope?: RouteScope;
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

export interface SessionAuthenticator {
  authenticate(token: string): Promise<SessionAuth | null>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one place roles and scopes are enforced: before the body is read, a route's declared access
 * and scope are checked against the caller (401 without a valid credential, 403 for a role not
 * listed or a key whose scopes the route does not admit).
 *
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
    const scope = (route.config as { scope?: string } | undefined)?.scope;
    if (scope !== undefined && (scope === 'full' || !(scope === 'any' || (SCOPES as readonly string[]).includes(scope)))) {
      throw new Error(`Route ${route.method} ${route.url} declares the unknown scope ${scope}.`);
    }
  });
  // Callback style: a credential found in the cache is settled without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const { access, scope } = request.routeOptions.config;
    if (access === undefined || access === 'public') return done();
    const admit = (principal: Principal | null | undefined): Error | undefined => {
      if (!principal) return errors.unauthorized();
      request.principal = principal;
      if (!access.includes(principal.role)) return errors.forbidden(`This operation needs one of the roles: ${access.join(', ')}.`);
      if (!scopeAdmits(principal.scopes, scope))
        return errors.forbidden(
          scope === undefined
            ? `This key is limited to the scopes ${principal.scopes.join(', ')}; this operation needs a key with the full role.`
            : `This key is limited to the scopes ${principal.scopes.join(', ')}; this operation needs ${scope} or the full role.`,
        );
      return undefined;
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
