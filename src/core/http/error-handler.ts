import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { DbError } from '../db/db.js';
import type { ErrorCode } from './error-codes.js';
import { AppError, errors, INTERNAL_DETAIL, titleOf } from './errors.js';
import { toErrorItems } from '../validation/ajv.js';
import { paramNotFound } from './params.js';
import { endAndLinger } from './unread-body.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Sends the error object (docs/errors.md) for an AppError. A 500's detail is always the fixed
 * sentence: whatever message an internal failure carries stays in the log.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  if (err.headers) reply.headers(err.headers);
  if (err.status >= 500 && err.cause !== undefined) request.log.error({ err: err.cause, code: err.code }, err.detail);
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .send({
      detail: err.status === 500 ? INTERNAL_DETAIL : err.detail,
      status: err.status,
      title: titleOf(err.status),
      metadata: { code: err.code, ...err.metadata },
      requestId: request.id,
    });
}

/** The code of a 4xx Fastify or Node raised itself, by its status. */
function frameworkCode(status: number): ErrorCode {
  const codes: Record<number, ErrorCode> = {
    404: 'route_not_found',
    408: 'request_timeout',
    413: 'body_too_large',
    414: 'path_too_long',
    415: 'unsupported_media_type',
    431: 'headers_too_large',
  };
  return codes[status] ?? 'malformed_request';
}

/**
 * SQLSTATEs that say the database cannot serve now, not that the request is wrong: connection
 * failures (08), out of resources such as a full disk or too many connections (53), an operator
 * or crash shutdown (57P01-57P03), a statement cancelled by our own time limit (57014), a
 * database that does not exist (3D000) or is not ready (55000). A client should retry them.
 */
const isUnavailable = (code: string | undefined): boolean =>
  code !== undefined &&
  (code.startsWith('08') || code.startsWith('53') || /^57P0[123]$/.test(code) || code === '57014' || code === '3D000' || code === '55000');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body types the route reads, named by a 415 (default: JSON, what the API takes). */
    accepts?: readonly string[];
  }
}

/** Whatever was thrown, as an AppError; anything unexpected becomes a 500 that shows nothing internal. */
export function toAppError(err: FastifyError | Error, request: FastifyRequest): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation && fe.validationContext === 'params') {
    const notFound = paramNotFound(fe.validation as never, request.routeOptions.schema?.params);
    if (notFound) return notFound;
  }
  if (fe.validation) return errors.invalid(toErrorItems(fe.validation as never), fe.validationContext ?? 'body');
  if (err instanceof DbError && isUnavailable(err.code)) {
    request.log.error({ err }, 'database unavailable');
    return errors.unavailable('The database is unavailable. Try again shortly.', 5, 'database_unavailable');
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const accepts = request.routeOptions.config?.accepts ?? ['application/json'];
    const type = request.headers['content-type']?.slice(0, 100);
    const sent = type ? `Content-Type ${type}` : 'A body without a Content-Type';
    return new AppError('unsupported_media_type', `${sent} is not accepted here; send ${accepts.join(' or ')}.`, { metadata: { accepts } });
  }
  // Fastify's own client errors (bad JSON 400, 413, ...) carry safe, fixed messages.
  if (!(err instanceof DbError) && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError(frameworkCode(fe.statusCode), fe.message, { status: fe.statusCode });
  }
  request.log.error({ err }, 'unhandled error');
  return errors.internal();
}

/** Error object for every failure, 404 for unknown routes and 405 for a known path with another method. */
export function registerErrorHandling(app: FastifyInstance, options: { pageFallback?: (request: FastifyRequest, reply: FastifyReply) => boolean } = {}): void {
  const known = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if ((METHODS as readonly string[]).includes(method)) known.on(method as (typeof METHODS)[number], route.url, () => undefined);
    }
  });

  app.setErrorHandler((err, request, reply) => sendError(request, reply, toAppError(err as Error, request)));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== request.method && known.find(m, path) !== null);
    if (allowed.length > 0) return sendError(request, reply, errors.methodNotAllowed(request.method, allowed));
    if (options.pageFallback?.(request, reply)) return reply;
    return sendError(request, reply, errors.routeNotFound(request.method, path));
  });
}

/**
 * Errors Fastify raises before a route is found (a path parameter past its length, 414; a URL
 * whose percent-encoding is broken, 400): answered with the error object like any other.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const detail = status === 414 ? 'A path parameter is longer than this service accepts.' : 'The request URL is not valid (check its percent-encoding).';
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  void sendError(request, reply, new AppError(frameworkCode(status), detail, { status }));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL too large: 431;
 * an unknown method or a malformed request line: 400; headers or a request that took longer than
 * their timeout: 408). They get the error object too, with a request id of their own, and the
 * connection is closed, since the parser cannot go on with it: ended at once, and destroyed a
 * moment later, long enough for the answer to be read, whether or not the client ever closes its side.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const requestId = randomUUID();
  const detail =
    status === 431
      ? 'The request headers or URL are larger than this service accepts.'
      : status === 408
        ? 'The request took too long to arrive.'
        : 'The request is not valid HTTP (check the method and request line).';
  const body = JSON.stringify({ detail, status, title: titleOf(status), metadata: { code: frameworkCode(status) }, requestId });
  endAndLinger(
    socket,
    `HTTP/1.1 ${status} ${titleOf(status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
