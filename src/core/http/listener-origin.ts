import type { FastifyRequest } from 'fastify';

/**
 * The address this request actually reached (the listener's own address and port), as an
 * origin. Unlike the Host header, which any caller writes, it is safe to store in data others
 * read (a link in a recorded pull request); PUBLIC_URL, when set, is preferred over both.
 */
export function listenerOrigin(request: FastifyRequest): string {
  const address = request.socket.localAddress ?? '127.0.0.1';
  const host = address.startsWith('::ffff:') ? address.slice(7) : address;
  const port = request.socket.localPort;
  return `${request.protocol}://${host.includes(':') ? `[${host}]` : host}${port ? `:${port}` : ''}`;
}
