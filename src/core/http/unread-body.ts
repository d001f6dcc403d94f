import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { systemClock } from '../clock.js';

/** The most of a body answered before it was read that is still read and dropped, to keep its connection. */
const DRAIN_MAX_BYTES = 256 * 1024;

/** How long a connection the service closes stays before it is destroyed: long enough for the client to read the answer. */
const LINGER_MS = 1000;

/**
 * Ends `socket` after what is written to it, and destroys it LINGER_MS later whether or not the
 * client closes its side. Destroying it at once, with bytes the client sent still unread, would
 * reset the connection, and a client still sending could lose the answer before reading it.
 */
export function endAndLinger(socket: Duplex, data?: string): void {
  socket.end(data);
  // The socket's own time, not the service's clock: the system clock's timer.
  systemClock.timeout(() => socket.destroy(), LINGER_MS, { keepAlive: false });
}

/** Whether answering now leaves more than DRAIN_MAX_BYTES of the request's body unread, or a rest of unknown length. */
function leavesLargeBodyUnread(request: FastifyRequest): boolean {
  if (request.raw.complete) return false;
  const length = Number(request.headers['content-length']);
  return request.headers['transfer-encoding'] !== undefined || !(length <= DRAIN_MAX_BYTES);
}

/**
 * A response sent before a large request body was read (a 503 of the body budget, a 401, a 413)
 * closes its connection without reading the rest. Node would otherwise read all of it to reuse the
 * connection: 100 refused 19 MiB exports cost the event loop about 2 GB of reading, and since Node
 * accepts one connection per turn of its loop, a health check waited behind that for seconds. A
 * rest of at most 256 KiB is still read, so small requests keep their connection (as Go's server
 * does). The connection stops being read, is ended after the answer and destroyed a moment later.
 */
export function registerUnreadBodyClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (leavesLargeBodyUnread(request)) {
      reply.header('connection', 'close');
      // Node ends and destroys a connection whose answer says close with destroySoon, once the answer is written.
      const socket: Socket = request.raw.socket;
      socket.destroySoon = () => {
        // The rest of the body stays in the kernel's buffers; the client's writes wait.
        socket.pause();
        endAndLinger(socket);
      };
    }
    done(null, payload);
  });
}
