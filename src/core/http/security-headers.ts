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
