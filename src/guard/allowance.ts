/** The organization's enforcement policy as the allowance carries it (contract §16). */
export interface Enforcement {
  mode: 'off' | 'warn' | 'block';
  /** Percent of the limit, ascending. */
  thresholds: number[];
  unreachable: 'open' | 'closed';
}

/** `GET /api/v0/usage/allowance`, the fields the hook reads. `source` may be any string (team limits add `team`). */
export interface Allowance {
  limit: number | null;
  source: string;
  /** The team whose budget binds, when `source` is `team`. */
  teamName?: string;
  used: number;
  remaining: number | null;
  periodStart: string;
  periodEnd: string;
  enforcement: Enforcement;
}

/** The documented default: what an allowance without `enforcement` (an older service) means. */
const DEFAULT_ENFORCEMENT: Enforcement = { mode: 'block', thresholds: [80, 95], unreachable: 'open' };

export type Fetched =
  | { kind: 'ok'; allowance: Allowance }
  /** No answer (refused, timed out) or a 5xx. */
  | { kind: 'unreachable'; reason: string }
  /** An answer that is not an allowance: a refused key (401/403) or another client error. */
  | { kind: 'refused'; status: number; detail: string };

/** How long the hook waits for the service before it counts as unreachable. */
const TIMEOUT_MS = 2000;

/**
 * One GET over node:http(s), loaded here only, since a warm cache needs no request. Not the API
 * client (openapi-fetch) nor global fetch: undici's first request cost 35 to 50 ms more than
 * node:http's on this kind of machine (measured for bench/guard.ts), and a hook runs at every prompt.
 */
export async function fetchAllowance(url: string, key: string, email: string | undefined): Promise<Fetched> {
  let target: URL;
  try {
    const base = new URL(url);
    target = new URL(`${base.pathname.replace(/\/$/, '')}/api/v0/usage/allowance`, base);
  } catch {
    return { kind: 'unreachable', reason: `invalid address ${url}` };
  }
  if (email !== undefined) target.searchParams.set('email', email);
  const { get } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve) => {
    const req = get(target, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, timeout: TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('error', (e) => resolve({ kind: 'unreachable', reason: e.message }));
      res.on('end', () => resolve(interpret(res.statusCode ?? 0, body)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'unreachable', reason: reasonOf(e) }));
  });
}

function reasonOf(e: NodeJS.ErrnoException): string {
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'host not found';
  return e.message || e.code || 'no answer';
}

function interpret(status: number, body: string): Fetched {
  if (status >= 500 || status === 0) return { kind: 'unreachable', reason: `HTTP ${status}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300) {
    const allowance = parseAllowance(parsed);
    return allowance ? { kind: 'ok', allowance } : { kind: 'unreachable', reason: 'an answer that is not an allowance' };
  }
  const detail = typeof (parsed as { detail?: unknown })?.detail === 'string' ? (parsed as { detail: string }).detail : '';
  return { kind: 'refused', status, detail };
}

/** An allowance from JSON (an answer or the cache), or undefined when it is not one. */
export function parseAllowance(value: unknown): Allowance | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const limit = v.limit === null || typeof v.limit === 'number' ? v.limit : undefined;
  if (limit === undefined || typeof v.used !== 'number' || typeof v.periodStart !== 'string' || typeof v.periodEnd !== 'string') return undefined;
  const remaining = typeof v.remaining === 'number' ? v.remaining : limit === null ? null : Math.max(0, limit - v.used);
  return {
    limit,
    source: typeof v.source === 'string' ? v.source : 'none',
    ...(typeof v.teamName === 'string' ? { teamName: v.teamName } : {}),
    used: v.used,
    remaining,
    periodStart: v.periodStart,
    periodEnd: v.periodEnd,
    enforcement: parseEnforcement(v.enforcement),
  };
}

function parseEnforcement(value: unknown): Enforcement {
  if (typeof value !== 'object' || value === null) return DEFAULT_ENFORCEMENT;
  const v = value as Record<string, unknown>;
  const mode = v.mode === 'off' || v.mode === 'warn' || v.mode === 'block' ? v.mode : DEFAULT_ENFORCEMENT.mode;
  const thresholds = Array.isArray(v.thresholds)
    ? v.thresholds.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)).sort((a, b) => a - b)
    : DEFAULT_ENFORCEMENT.thresholds;
  const unreachable = v.unreachable === 'closed' ? 'closed' : 'open';
  return { mode, thresholds, unreachable };
}
