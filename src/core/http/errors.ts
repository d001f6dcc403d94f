import { STATUS_CODES } from 'node:http';

export interface ErrorItem {
  path: string;
  message: string;
}

/** A failure with its HTTP status, turned into the error object by the error handler. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly metadata?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const titleOf = (status: number): string => STATUS_CODES[status] ?? 'Error';

/** The catalogue of errors the service answers with; one function per kind, each with its status. */
export const errors = {
  badRequest: (detail: string, metadata?: Record<string, unknown>) => new AppError(400, detail, metadata),
  invalid: (items: ErrorItem[], where = 'body') =>
    new AppError(400, items.map((i) => `${where}${i.path === '' ? '' : i.path} ${i.message}`).join('; '), { errors: items }),
  unauthorized: () => new AppError(401, 'Missing or invalid credential. Send "Authorization: Bearer <API key or JWT>".'),
  signInFailed: () => new AppError(401, 'Wrong email or password.'),
  forbidden: (detail = 'Your role does not allow this operation.') => new AppError(403, detail),
  notFound: (what: string) => new AppError(404, `${what} not found.`),
  routeNotFound: (method: string, url: string) => new AppError(404, `No route ${method} ${url}.`),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(405, `Method ${method} is not allowed here; allowed: ${allowed.join(', ')}.`, { allowed }, { allow: allowed.join(', ') }),
  conflict: (detail: string, metadata?: Record<string, unknown>) => new AppError(409, detail, metadata),
  badGateway: (detail: string, metadata?: Record<string, unknown>) => new AppError(502, detail, metadata),
  tooManyRequests: (detail: string, retryAfterS: number) => new AppError(429, detail, undefined, { 'retry-after': String(retryAfterS) }),
  unavailable: (detail: string, retryAfterS = 5) => new AppError(503, detail, undefined, { 'retry-after': String(retryAfterS) }),
  internal: () => new AppError(500, 'Internal server error. The request id identifies it in the service log.'),
};
