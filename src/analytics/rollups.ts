import type { TelemetryEvent } from '../telemetry/validate-events.js';
import { creditUnits } from './credits.js';
import { extensionOf, languageOf } from './languages.js';

/** The counters of one user on one day; the column names of analytics_user_day. */
export const USER_DAY_COUNTERS = [
  'events', 'events_terminal_ui', 'events_web', 'events_non_interactive_cli',
  'sessions', 'sessions_auto_high', 'sessions_auto_medium', 'sessions_auto_low', 'sessions_spec', 'sessions_manual',
  'messages', 'user_messages', 'tool_calls', 'tools_auto_high', 'tools_auto_medium', 'tools_auto_low', 'tools_manual',
  'mcp_calls', 'skill_calls', 'slash_commands', 'hooks', 'files_created', 'files_edited', 'git_commits', 'git_prs_created',
  'credit_units', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens',
] as const;
export type UserDayCounter = (typeof USER_DAY_COUNTERS)[number];

export interface UserDayDelta {
  day: string;
  userId: string;
  counts: Record<UserDayCounter, bigint>;
  languages: Set<string>;
  lastSession: { ms: number; level: string } | null;
}

export const MODEL_COUNTERS = ['requests', 'credit_units', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const;
export interface ModelDelta {
  day: string;
  userId: string;
  model: string;
  tier: string;
  counts: Record<(typeof MODEL_COUNTERS)[number], bigint>;
}

export type CounterKind = 'tool' | 'mcp_server' | 'skill' | 'slash_command' | 'hook' | 'extension' | 'language';
export interface CounterDelta {
  day: string;
  kind: CounterKind;
  names: [string, string, string];
  count: bigint;
}

export interface RollupDeltas {
  userDays: UserDayDelta[];
  models: ModelDelta[];
  counters: CounterDelta[];
}

const snake = (s: string) => s.replace(/-/g, '_');

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

/** A later session wins; at the same millisecond the greater level, so the order of arrival never matters. */
export const laterSession = (a: { ms: number; level: string }, b: { ms: number; level: string }): boolean => a.ms > b.ms || (a.ms === b.ms && a.level > b.level);

/**
 * What a set of newly stored events adds to each rollup row. Keys are sorted so that concurrent
 * batches lock rollup rows in the same order and never deadlock.
 */
export function rollupDeltas(events: readonly TelemetryEvent[]): RollupDeltas {
  const userDays = new Map<string, UserDayDelta>();
  const models = new Map<string, ModelDelta>();
  const counters = new Map<string, CounterDelta>();
  const count = (day: string, kind: CounterKind, a: string, b = '', c = '') => {
    getOrAdd(counters, JSON.stringify([day, kind, a, b, c]), () => ({ day, kind, names: [a, b, c], count: 0n })).count += 1n;
  };

  for (const e of events) {
    const ud = getOrAdd(userDays, `${e.day}|${e.userId}`, () => ({
      day: e.day,
      userId: e.userId,
      counts: Object.fromEntries(USER_DAY_COUNTERS.map((c) => [c, 0n])) as Record<UserDayCounter, bigint>,
      languages: new Set<string>(),
      lastSession: null,
    }));
    const n = ud.counts;
    const add = (c: UserDayCounter, v: bigint | number = 1n) => (n[c] += BigInt(v));
    add('events');
    add(`events_${snake(e.client)}` as UserDayCounter);
    const a = e.attrs as Record<string, string | number | undefined>;
    switch (e.type) {
      case 'session_start': {
        const level = a.delegationLevel as string;
        add('sessions');
        add(`sessions_${snake(level)}` as UserDayCounter);
        const s = { ms: e.ms, level };
        if (ud.lastSession === null || laterSession(s, ud.lastSession)) ud.lastSession = s;
        break;
      }
      case 'message':
        add('messages');
        if (a.role === 'user') add('user_messages');
        break;
      case 'model_request': {
        const t = { inputTokens: a.inputTokens as number, outputTokens: a.outputTokens as number, cacheReadTokens: a.cacheReadTokens as number, cacheWriteTokens: a.cacheWriteTokens as number };
        const credits = creditUnits(a.model as string, t);
        add('credit_units', credits);
        add('input_tokens', t.inputTokens);
        add('output_tokens', t.outputTokens);
        add('cache_read_tokens', t.cacheReadTokens);
        add('cache_write_tokens', t.cacheWriteTokens);
        const m = getOrAdd(models, JSON.stringify([e.day, e.userId, a.model, a.tier]), () => ({
          day: e.day, userId: e.userId, model: a.model as string, tier: a.tier as string,
          counts: { requests: 0n, credit_units: 0n, input_tokens: 0n, output_tokens: 0n, cache_read_tokens: 0n, cache_write_tokens: 0n },
        }));
        m.counts.requests += 1n;
        m.counts.credit_units += credits;
        m.counts.input_tokens += BigInt(t.inputTokens);
        m.counts.output_tokens += BigInt(t.outputTokens);
        m.counts.cache_read_tokens += BigInt(t.cacheReadTokens);
        m.counts.cache_write_tokens += BigInt(t.cacheWriteTokens);
        break;
      }
      case 'tool_call':
        add('tool_calls');
        add(`tools_${snake(a.autonomyLevel as string)}` as UserDayCounter);
        count(e.day, 'tool', a.tool as string);
        if (a.mcpServer !== undefined) {
          add('mcp_calls');
          count(e.day, 'mcp_server', a.mcpServer as string);
        }
        break;
      case 'skill':
        add('skill_calls');
        count(e.day, 'skill', a.name as string);
        break;
      case 'slash_command':
        add('slash_commands');
        count(e.day, 'slash_command', a.name as string);
        break;
      case 'hook':
        add('hooks');
        count(e.day, 'hook', a.event as string, a.matcher as string, a.command as string);
        break;
      case 'file_change': {
        add(a.change === 'created' ? 'files_created' : 'files_edited');
        count(e.day, 'extension', extensionOf(a.path as string));
        const language = languageOf(a.path as string, a.language as string | undefined);
        if (language !== undefined) {
          count(e.day, 'language', language);
          ud.languages.add(language);
        }
        break;
      }
      case 'git_commit':
        add('git_commits');
        break;
      case 'pr_created':
        add('git_prs_created');
        break;
    }
  }
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
  return { userDays: sorted(userDays), models: sorted(models), counters: sorted(counters) };
}
