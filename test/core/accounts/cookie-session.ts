import type { Response, TestApp } from '../../helpers/test-app.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The cookies of a Set-Cookie response header, by name, with their attributes as written. */
export function setCookies(res: Response): Map<string, string> {
  const raw = res.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return new Map(lines.map((l) => [l.slice(0, l.indexOf('=')), l]));
}

/**
 * What a browser on the app's own page does: keeps the cookies it is given and sends them back,
 * with Sec-Fetch-Site: same-origin and the CSRF header on writes (each of which a test can drop).
 */
export class CookieSession {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(private readonly t: TestApp) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = Record<string, unknown>>(
    method: Method,
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; site?: string | null; csrf?: string | null; key?: string } = {},
  ): Promise<Response<T>> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (options.site !== null) headers['sec-fetch-site'] = options.site ?? 'same-origin';
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (method !== 'GET' && csrf !== null && csrf !== undefined) headers['x-csrf-token'] = csrf;
    const res = await this.t.request<T>(method, url, { body: options.body, key: options.key, headers: { ...headers, ...options.headers } });
    for (const [name, line] of setCookies(res)) {
      const value = line.slice(name.length + 1, line.indexOf(';'));
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = (res.body as { csrfToken?: unknown } | undefined)?.csrfToken;
    if (typeof token === 'string') this.csrf = token;
    return res;
  }

  login(email: string, password: string) {
    return this.request('POST', '/api/v0/session/login', { body: { email, password } });
  }
}
