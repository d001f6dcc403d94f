import type { TelemetryEvent } from '../events/event.js';
import { betterHint, type RepoHint } from '../events/repository.js';
import { creditUnits } from './credits.js';
import type { Increment } from './rollups.js';

/** The counters of a session-day and of a repository's person-day, in the column order of migration 0075. */
export const REPO_COUNTERS = [
  'events',
  'sessions',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'tool_calls',
  'tool_errors',
  'git_commits',
  'git_prs_created',
  'git_prs_merged',
] as const;
const [EVENTS, SESSIONS, INPUT, OUTPUT, CACHE_READ, CACHE_WRITE, TOOLS, TOOL_ERRORS, COMMITS, PRS, MERGED] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** What a batch adds to one session's day. */
export interface SessionDayDelta {
  day: string;
  userId: string;
  sessionId: string;
  /** Indexed as REPO_COUNTERS. */
  counts: number[];
  creditUnits: bigint;
}

/** The best repository a batch tells of for one session. */
export interface SessionHint {
  userId: string;
  sessionId: string;
  hint: RepoHint;
}

export interface RepoDeltas {
  sessionDays: SessionDayDelta[];
  hints: SessionHint[];
}

/**
 * What a batch adds to each session's days, and the best repository it tells of for each session.
 * What names no session (an OTLP counter without `session.id`) belongs to no repository. Sorted by
 * key, so that concurrent batches lock in one order.
 */
export function repoDeltas(events: readonly TelemetryEvent[], increments: readonly Increment[] = []): RepoDeltas {
  const days = new Map<string, SessionDayDelta>();
  const tokensOf = new Map<SessionDayDelta, Map<string, number[]>>();
  const hints = new Map<string, SessionHint>();
  let last: SessionDayDelta | undefined;
  const enter = (day: string, userId: string, sessionId: string): SessionDayDelta => {
    if (last !== undefined && last.day === day && last.userId === userId && last.sessionId === sessionId) return last;
    const key = `${userId}\0${sessionId}\0${day}`;
    let d = days.get(key);
    if (d === undefined) days.set(key, (d = { day, userId, sessionId, counts: new Array<number>(REPO_COUNTERS.length).fill(0), creditUnits: 0n }));
    return (last = d);
  };
  const hear = (userId: string, sessionId: string, hint: RepoHint | undefined) => {
    if (hint === undefined) return;
    const key = `${userId}\0${sessionId}`;
    hints.set(key, { userId, sessionId, hint: betterHint(hints.get(key)?.hint, hint) });
  };
  const tokens = (d: SessionDayDelta, model: string, input: number, output: number, cacheRead: number, cacheWrite: number) => {
    const c = d.counts;
    c[INPUT]! += input;
    c[OUTPUT]! += output;
    c[CACHE_READ]! += cacheRead;
    c[CACHE_WRITE]! += cacheWrite;
    let models = tokensOf.get(d);
    if (models === undefined) tokensOf.set(d, (models = new Map()));
    let m = models.get(model);
    if (m === undefined) models.set(model, (m = [0, 0, 0, 0]));
    m[0]! += input;
    m[1]! += output;
    m[2]! += cacheRead;
    m[3]! += cacheWrite;
  };
  for (const e of events) {
    hear(e.userId, e.sessionId, e.repo);
    const d = enter(e.day, e.userId, e.sessionId);
    const c = d.counts;
    const a = e.attrs as Record<string, string | number | undefined>;
    c[EVENTS]! += 1;
    switch (e.type) {
      case 'session_start':
        c[SESSIONS]! += 1;
        break;
      case 'model_request':
        tokens(d, a.model as string, a.inputTokens as number, a.outputTokens as number, a.cacheReadTokens as number, a.cacheWriteTokens as number);
        break;
      case 'tool_call':
        c[TOOLS]! += 1;
        if (a.outcome === 'error') c[TOOL_ERRORS]! += 1;
        break;
      case 'git_commit':
        c[COMMITS]! += 1;
        break;
      case 'pr_created':
        c[PRS]! += 1;
        break;
      case 'pr_merged':
        c[MERGED]! += 1;
        break;
    }
  }
  for (const i of increments) {
    if (i.sessionId === undefined) continue;
    hear(i.userId, i.sessionId, i.repo);
    const d = enter(i.day, i.userId, i.sessionId);
    const c = d.counts;
    const v = i.amount;
    if (i.counter === 'tokens') {
      // One model request of `v` tokens of one kind, as the user-day rollups count it.
      c[EVENTS]! += 1;
      const k = i.kind;
      tokens(d, i.model, k === 'input' ? v : 0, k === 'output' ? v : 0, k === 'cacheRead' ? v : 0, k === 'cacheWrite' ? v : 0);
      continue;
    }
    c[EVENTS]! += v;
    if (i.counter === 'sessions') c[SESSIONS]! += v;
    else if (i.counter === 'tool_calls') c[TOOLS]! += v;
    else if (i.counter === 'git_commits') c[COMMITS]! += v;
    else if (i.counter === 'git_prs_created') c[PRS]! += v;
  }
  // Credits are linear in the tokens: worked out once per session-day and model, exactly.
  for (const [d, models] of tokensOf) {
    for (const [model, [inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens]] of models) {
      d.creditUnits += creditUnits(model, {
        inputTokens: inputTokens!,
        outputTokens: outputTokens!,
        cacheReadTokens: cacheReadTokens!,
        cacheWriteTokens: cacheWriteTokens!,
      });
    }
  }
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
  return { sessionDays: sorted(days), hints: sorted(hints) };
}
