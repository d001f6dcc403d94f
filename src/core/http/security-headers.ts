import type { FastifyInstance } from 'fastify';

/**
 * Headers every response carries: no content sniffing (a JSON error must never be read as
 * HTML), and no storing of anything a credential was needed for, so an API key shown once on
 * creation, or a member's analytics, never lands in a shared or browser cache.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const access = request.routeOptions.config?.access;
    if (access !== undefined && access !== 'public') reply.header('cache-control', 'no-store');
    done();
  });
}

/**
 * Headers of the web app's files: a strict Content-Security-Policy (scripts, styles and
 * connections from this origin only, no inline script, no framing), no referrer (an invitation
 * link carries its token in the path), and isolation from other windows.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src " +
    "'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
