import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { createSessionClient } from '../../src/client/session-client.js';
import type { paths } from '../../src/client/openapi-types.js';

/** The body of a 200 answer of an operation of the API, by path and method. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } }
  ? B
  : never;
export type SessionInfo = Body<'/api/v0/session', 'get'>;

let csrfToken: string | undefined;

/** The typed API client of every page: the session cookie, and the CSRF token of the session on writes. */
export const api = createSessionClient(() => csrfToken);

/** The service answered with its error object. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly requestId: string | undefined,
    /** The error object's `metadata`, when it has one (e.g. the line and column of a YAML error). */
    readonly metadata?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

/** The body of a successful call, or an ApiFailure carrying the error object's detail. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const body = error as { detail?: string; requestId?: string; metadata?: Record<string, unknown> } | undefined;
    throw new ApiFailure(response.status, body?.detail ?? response.statusText, body?.requestId, body?.metadata);
  }
  return data as T;
}

/** Keeps the CSRF token of a session the server just handed out (sign-in, setup, invitation, password change). */
export function rememberSession(info: { csrfToken: string | null }): void {
  csrfToken = info.csrfToken ?? undefined;
}

/** Who is signed in, and the CSRF token of their session (kept for the writes that follow). */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async () => {
    const info = await call(api.GET('/api/v0/session'));
    rememberSession(info);
    return info;
  },
  retry: false,
  staleTime: 60_000,
});

/** The signed-in user, on the pages under the shell, whose route has read the session before they load. */
export const useMe = () => useSuspenseQuery(sessionQuery).data;

export const isManager = (role: string | undefined): boolean => role === 'owner' || role === 'manager';
