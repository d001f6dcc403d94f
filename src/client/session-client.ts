import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

export const CSRF_HEADER = 'x-csrf-token';

/**
 * The API client of the web app's pages: the same generated client as everyone's, calling the
 * page's own origin with the session cookie instead of a bearer key, and the session's CSRF
 * token on every write (the server refuses cookie writes without it).
 */
export function createSessionClient(csrfToken: () => string | undefined): Client<paths> {
  const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
  const csrf: Middleware = {
    onRequest({ request }) {
      const token = csrfToken();
      if (request.method !== 'GET' && request.method !== 'HEAD' && token !== undefined) request.headers.set(CSRF_HEADER, token);
      return request;
    },
  };
  client.use(csrf);
  return client;
}
