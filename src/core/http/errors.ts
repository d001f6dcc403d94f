import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export type { ErrorItem } from '../validation/ajv.js';
import type { ErrorItem } from '../validation/ajv.js';

/** The codes of one status, so a call site can only name a code that fits the kind of error. */
export type CodeOf<S extends number> = { [K in ErrorCode]: (typeof ERROR_CODES)[K]['status'] extends S ? K : never }[ErrorCode];

export interface AppErrorOptions {
  /** Only where the status is not the code's own (a framework's 4xx under a general code). */
  status?: number;
  metadata?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The failure behind this one: logged, never sent. */
  cause?: unknown;
}

/** A failure with its code and HTTP status, turned into the error object by the error handler. */
export class AppError extends Error {
  readonly status: number;
  readonly metadata?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? ERROR_CODES[code].status;
    this.metadata = options.metadata;
    this.headers = options.headers;
  }
}

export const titleOf = (status: number): string => STATUS_CODES[status] ?? 'Error';

export const INTERNAL_DETAIL = 'Internal server error. The request id identifies it in the service log.';

/** The catalogue of errors the service answers with; one function per kind, each with its status and code. */
export const errors = {
  badRequest: (detail: string, metadata?: Record<string, unknown>) => new AppError('bad_request', detail, { metadata }),
  invalid: (items: ErrorItem[], where = 'body') =>
    new AppError('validation_failed', items.map((i) => `${where}${i.path === '' ? '' : i.path} ${i.message}`).join('; '), { metadata: { errors: items } }),
  unauthorized: () => new AppError('unauthenticated', 'Missing or invalid credential. Send "Authorization: Bearer <API key or JWT>".'),
  signInFailed: () => new AppError('sign_in_failed', 'Wrong email or password.'),
  forbidden: (detail = 'Your role does not allow this operation.', code: CodeOf<403> = 'forbidden') => new AppError(code, detail),
  notFound: (what: string, code: CodeOf<404> = 'not_found') => new AppError(code, `${what} not found.`),
  routeNotFound: (method: string, url: string) => new AppError('route_not_found', `No route ${method} ${url}.`),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError('method_not_allowed', `Method ${method} is not allowed here; allowed: ${allowed.join(', ')}.`, {
      metadata: { allowed },
      headers: { allow: allowed.join(', ') },
    }),
  conflict: (code: CodeOf<409>, detail: string, metadata?: Record<string, unknown>) => new AppError(code, detail, { metadata }),
  badGateway: (detail: string, metadata?: Record<string, unknown>, cause?: unknown) => new AppError('upstream_failed', detail, { metadata, cause }),
  tooManyRequests: (detail: string, retryAfterS: number) => new AppError('rate_limited', detail, { headers: { 'retry-after': String(retryAfterS) } }),
  unavailable: (detail: string, retryAfterS = 5, code: CodeOf<503> = 'unavailable', cause?: unknown) =>
    new AppError(code, detail, { headers: { 'retry-after': String(retryAfterS) }, cause }),
  internal: (cause?: unknown) => new AppError('internal', INTERNAL_DETAIL, { cause }),
};
