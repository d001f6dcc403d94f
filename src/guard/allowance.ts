import { guardRequest } from './request.js';

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

/** `GET /api/v0/usage/allowance` (for `email` with a service account's key), as the hook reads it. */
export async function fetchAllowance(url: string, key: string, email: string | undefined): Promise<Fetched> {
  const reply = await guardRequest({
    method: 'GET',
    url,
    path: '/api/v0/usage/allowance',
    key,
    ...(email !== undefined ? { query: { email } } : {}),
    timeoutMs: TIMEOUT_MS,
  });
  return reply.kind === 'failed' ? { kind: 'unreachable', reason: reply.reason } : interpret(reply.status, reply.body);
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
