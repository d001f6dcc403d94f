/** What one request to the service came to: an answer (any status), or none and why. */
export type Reply = { kind: 'answer'; status: number; body: string } | { kind: 'failed'; reason: string };

export interface GuardRequest {
  method: 'GET' | 'PUT';
  /** The service's address (what `orgctl login` stored), and the API path under it. */
  url: string;
  path: string;
  key: string;
  query?: Record<string, string>;
  json?: unknown;
  timeoutMs: number;
}

/**
 * One request over node:http(s), loaded only when a hook makes one. Not the API client
 * (openapi-fetch) nor global fetch: undici's first request cost 35 to 50 ms more than node:http's
 * on this kind of machine (measured for bench/guard.ts), and a hook runs at every prompt. Never
 * rejects: no answer within `timeoutMs`, a refused connection or a bad address is `failed`.
 */
export async function guardRequest(r: GuardRequest): Promise<Reply> {
  let target: URL;
  try {
    const base = new URL(r.url);
    target = new URL(`${base.pathname.replace(/\/$/, '')}${r.path}`, base);
  } catch {
    return { kind: 'failed', reason: `invalid address ${r.url}` };
  }
  for (const [name, value] of Object.entries(r.query ?? {})) target.searchParams.set(name, value);
  const body = r.json === undefined ? undefined : JSON.stringify(r.json);
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve) => {
    const headers: Record<string, string> = { authorization: `Bearer ${r.key}`, accept: 'application/json' };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    const req = request(target, { method: r.method, headers, timeout: r.timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', (e) => resolve({ kind: 'failed', reason: e.message }));
      res.on('end', () => resolve({ kind: 'answer', status: res.statusCode ?? 0, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${r.timeoutMs / 1000} s`)));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'failed', reason: reasonOf(e) }));
    req.end(body);
  });
}

function reasonOf(e: NodeJS.ErrnoException): string {
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'host not found';
  return e.message || e.code || 'no answer';
}
