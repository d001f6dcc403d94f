import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Headers that describe one connection or one encoding of a body, not the request or response. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/**
 * With APP_PORT the web app's pages live on the application listener, and a page calls the API
 * on its own origin (cookies and CSRF checks are per origin; no CORS is needed or allowed). That
 * listener hands every /api/v0 and /api/v1 request to the API's own app in this process, with the
 * caller's address, headers, body and request id, so sessions, CSRF checks, rate limits, errors
 * and logs are those of the API itself.
 */
export function forwardApiRequests(app: FastifyInstance, api: FastifyInstance): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, 'x-request-id': request.id };
    for (const name of HOP_BY_HOP) delete headers[name];
    const res = await api.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: headers as Record<string, string>,
      // The body was parsed (JSON is the only body type) and limited here already; sent on as JSON.
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      // The peer this listener saw, not request.ip: with the X-Forwarded-* headers passed on
      // unchanged, the API applies TRUST_PROXY to what this listener was given, and so reaches
      // the same client address and scheme (a client address it would not trust would lose them).
      remoteAddress: request.socket.remoteAddress ?? request.ip,
    });
    reply.code(res.statusCode);
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    return reply.send(res.rawPayload);
  };
  for (const url of ['/api/v0/*', '/api/v1/*']) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url,
      config: { access: 'public', rateClass: 'none' },
      schema: { hide: true },
      handler,
    });
  }
}
