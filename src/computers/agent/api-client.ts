/** The host agent's HTTP client of the service: JSON in and out, the API key as bearer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
    this.name = 'ApiError';
  }
}

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<T> {
    const signals = [AbortSignal.timeout(opts.timeoutMs ?? 30_000), ...(opts.signal ? [opts.signal] : [])];
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw new ApiError(res.status, (parsed as { detail?: string } | undefined)?.detail ?? (text.slice(0, 200) || res.statusText));
    return parsed as T;
  }
}

/** Whether a failure is worth retrying: the service is unreachable, restarting or overloaded. */
export const isTransient = (e: unknown): boolean => !(e instanceof ApiError) || e.status >= 500 || e.status === 429;
