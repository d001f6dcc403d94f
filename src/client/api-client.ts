import createClient, { type Client } from 'openapi-fetch';
import { systemClock } from '../core/clock.js';
import type { components, paths } from './openapi-types.js';

/** The typed client of the whole API, generated from openapi.json (`npm run openapi`). */
export type OrgctlClient = Client<paths>;
export type ErrorObject = components['schemas']['ErrorObject'];
export type { paths };

export interface ClientOptions {
  /** The service's base address, e.g. https://orgctl.example.com */
  url: string;
  key: string;
  /** Aborts each request after this long, unless the call passes its own signal. */
  timeoutMs?: number;
}

/** The service answered with an error object (or a non-JSON error body). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly requestId: string | undefined,
    readonly metadata: Record<string, unknown> | undefined,
  ) {
    super(`${status}: ${detail}`);
    this.name = 'ApiError';
  }
}

/** No answer came: refused, unresolvable, reset or timed out. */
export class ServiceUnreachableError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Cannot reach ${url}: ${reason}`);
    this.name = 'ServiceUnreachableError';
  }
}

/** Checks the address early, so a typo is a clear message rather than a fetch TypeError. */
export function serviceUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`The service URL must be an http(s) URL, got ${JSON.stringify(raw)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`The service URL must be an http(s) URL, got ${JSON.stringify(raw)}.`);
  return raw.replace(/\/+$/, '');
}

export function createApiClient(o: ClientOptions): OrgctlClient {
  const baseUrl = serviceUrl(o.url);
  const timeoutMs = o.timeoutMs;
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${o.key}` },
    // A per-client timeout joins the caller's own signal; either one aborts.
    fetch: async (request: Request) => {
      const signal = timeoutMs === undefined ? request.signal : AbortSignal.any([request.signal, systemClock.abortAfter(timeoutMs)]);
      try {
        return await fetch(new Request(request, { signal }));
      } catch (e) {
        // The caller's own abort stays an abort; everything else means no answer came.
        if (request.signal.aborted) throw e;
        throw new ServiceUnreachableError(baseUrl, describeNetworkError(e));
      }
    },
  });
}

function describeNetworkError(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'no answer in time';
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer; an ApiError for any other. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw toApiError(response, error);
}

export function toApiError(response: Response, error: unknown): ApiError {
  const body = (typeof error === 'object' && error !== null ? error : {}) as Partial<ErrorObject>;
  const detail =
    typeof body.detail === 'string' ? body.detail : typeof error === 'string' && error !== '' ? error.slice(0, 200) : response.statusText || 'Error';
  return new ApiError(response.status, detail, body.requestId ?? response.headers.get('x-request-id') ?? undefined, body.metadata);
}

/** Whether a failure is worth retrying: the service is unreachable, restarting or overloaded. */
export const isTransient = (e: unknown): boolean => !(e instanceof ApiError) || e.status >= 500 || e.status === 429;
