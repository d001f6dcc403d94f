/**
 * Synthetic telemetry for the analytics benchmark: `total` events over `users` users and the
 * `days` days ending `lastDay`, generated lazily, batch by batch. Every user works every day, in
 * sessions of 20 events in the mix of a real team; more events mean more sessions per user and
 * day. So the rollup rows (users × days, four models each) are the same at 1M and at 10M events
 * (from about 14 events per user and day on), and comparing the two shows what the events
 * stored cost the reads. A batch holds 1000 events of one user, as each agent sends its own;
 * the users take turns, so all of them move through time together.
 */
import { DAY_MS } from '../src/core/days.js';

const MODELS = [
  { model: 'claude-sonnet-4-5', tier: 'standard' },
  { model: 'claude-opus-4-1-thinking', tier: 'thinking' },
  { model: 'gpt-5', tier: 'standard' },
  { model: 'local-model', tier: 'standard' },
];
const TOOLS = ['Read', 'Edit', 'Grep', 'Bash', 'Write', 'Glob'];
const LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'manual'];
const DELEGATION = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'];
const CLIENTS = ['terminal-ui', 'terminal-ui', 'web', 'non-interactive-cli'];
const FILES = ['src/a.ts', 'lib/b.py', 'cmd/c.go', 'README.md', 'Makefile', 'web/d.tsx'];
/**
 * Each user works in one of 40 repositories, named by the session's start (a native event's
 * repository): the repository rollup rows (repositories × their users × days) are then the same
 * at 1M and at 10M events too.
 */
const REPOSITORIES = 40;

/**
 * Event k of a session (k < 20): every type and all four models within its first 14 events, so
 * that a user's day holds them all even with one short session.
 */
const SESSION = [
  'session_start',
  'message',
  'model_request',
  'tool_call',
  'model_request',
  'file_change',
  'message',
  'model_request',
  'tool_call',
  'model_request',
  'skill',
  'slash_command',
  'hook',
  'git',
  'message',
  'tool_call',
  'tool_call',
  'message',
  'tool_call',
  'file_change',
] as const;

/** Event k of session `s` of user `u` on day `d`. */
function eventOf(id: string, userId: string, ms: number, u: number, d: number, s: number, k: number, runId: string): Record<string, unknown> {
  const v = u + d + s; // varies the choices between users, days and sessions
  const base = { id, timestamp: new Date(ms).toISOString(), sessionId: `${runId}-${u}-${d}-${s}`, client: CLIENTS[v % CLIENTS.length], userId };
  const type = SESSION[k % 20]!;
  switch (type) {
    case 'session_start':
      return {
        ...base,
        type,
        delegationLevel: DELEGATION[v % DELEGATION.length],
        repository: { url: `https://github.com/bench/repo-${u % REPOSITORIES}.git` },
      };
    case 'message':
      return { ...base, type, role: k % 3 === 1 ? 'user' : 'assistant' };
    case 'model_request': {
      const m = MODELS[[2, 4, 7, 9].indexOf(k % 20)]!;
      return {
        ...base,
        type,
        ...m,
        inputTokens: 1000 + ((v * 31 + k) % 5000),
        outputTokens: 200 + ((v * 7 + k) % 900),
        cacheReadTokens: ((v + k) % 7) * 9000,
        cacheWriteTokens: ((v + k) % 3) * 400,
      };
    }
    case 'tool_call':
      return {
        ...base,
        type,
        tool: TOOLS[(v + k) % TOOLS.length],
        autonomyLevel: LEVELS[(v + k) % LEVELS.length],
        ...(k % 20 === 16 ? { mcpServer: v % 2 ? 'GitHub' : 'github' } : {}),
      };
    case 'skill':
      return { ...base, type, name: 'pdf' };
    case 'slash_command':
      return { ...base, type, name: '/review' };
    case 'hook':
      return { ...base, type, event: 'Stop', matcher: '', command: 'notify.sh' };
    case 'file_change':
      return { ...base, type, path: FILES[(v + k) % FILES.length], change: v % 3 ? 'edited' : 'created' };
    case 'git':
      return { ...base, type: v % 7 ? 'git_commit' : v % 2 ? 'pr_created' : 'pr_merged' };
  }
}

export interface SyntheticOptions {
  total: number;
  users: string[];
  days: number;
  lastDayMs: number;
  batchSize: number;
  runId: string;
}

export function* syntheticBatches(o: SyntheticOptions) {
  const firstMs = o.lastDayMs - (o.days - 1) * DAY_MS;
  const userCount = o.users.length;
  const slots = userCount * o.days;
  // Events of user u on day d: the total spread over the user-days, exactly.
  const eventsOf = (u: number, d: number) => Math.floor(((u * o.days + d + 1) * o.total) / slots) - Math.floor(((u * o.days + d) * o.total) / slots);
  // Each user's events in time order; the users take turns, one batch each, so all move through time together.
  function* userEvents(u: number) {
    for (let d = 0; d < o.days; d++) {
      const n = eventsOf(u, d);
      for (let k = 0; k < n; k++) {
        const ms = firstMs + d * DAY_MS + Math.floor(((k + 0.5) / n) * (DAY_MS - 1000));
        yield eventOf(`${o.runId}-${u}-${d}-${k}`, o.users[u]!, ms, u, d, Math.floor(k / 20), k, o.runId);
      }
    }
  }
  const streams = Array.from({ length: userCount }, (_, u) => userEvents(u));
  for (let live = userCount; live > 0;) {
    live = 0;
    for (const stream of streams) {
      const batch: Record<string, unknown>[] = [];
      for (let next = stream.next(); !next.done; next = stream.next()) {
        batch.push(next.value);
        if (batch.length === o.batchSize) break;
      }
      if (batch.length > 0) {
        live++;
        yield batch;
      }
    }
  }
}
