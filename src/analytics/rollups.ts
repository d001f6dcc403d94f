import { AUTONOMY_LEVELS, CLIENTS, DELEGATION_LEVELS, type Client } from '../events/schemas.js';
import type { TelemetryEvent } from '../events/event.js';
import type { RepoHint } from '../events/repository.js';
import { creditUnits } from './credits.js';
import { boundedName } from './bounds.js';
import { extensionOf, languageOf } from './languages.js';

/** The counters of one user on one day; the column names of analytics_user_day. */
export const USER_DAY_COUNTERS = [
  'events',
  'events_terminal_ui',
  'events_web',
  'events_non_interactive_cli',
  'sessions',
  'sessions_auto_high',
  'sessions_auto_medium',
  'sessions_auto_low',
  'sessions_spec',
  'sessions_manual',
  'messages',
  'user_messages',
  'tool_calls',
  'tools_auto_high',
  'tools_auto_medium',
  'tools_auto_low',
  'tools_manual',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'credit_units',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
] as const;
export type UserDayCounter = (typeof USER_DAY_COUNTERS)[number];

/** The counters kept as numbers, in the order of `counts` arrays below (credit units are kept apart). */
export const USER_DAY_COUNTS = USER_DAY_COUNTERS.filter((c) => c !== 'credit_units');
export const MODEL_COUNTS = ['requests', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const;
const U = Object.fromEntries(USER_DAY_COUNTS.map((c, i) => [c, i])) as Record<Exclude<UserDayCounter, 'credit_units'>, number>;

/**
 * Counts and token sums of one batch stay exact as numbers (at most 1000 events of at most
 * 10^12 tokens each is far below 2^53); credit units can pass 2^53 and are bigints.
 */
export interface UserDayDelta {
  day: string;
  userId: string;
  /** Indexed as USER_DAY_COUNTS. */
  counts: number[];
  creditUnits: bigint;
  languages: Set<string>;
  lastSession: { ms: number; level: string } | null;
}

export interface ModelDelta {
  day: string;
  userId: string;
  model: string;
  tier: string;
  /** Indexed as MODEL_COUNTS. */
  counts: [requests: number, input: number, output: number, cacheRead: number, cacheWrite: number];
  creditUnits: bigint;
}

export type CounterKind = 'tool' | 'mcp_server' | 'skill' | 'slash_command' | 'hook' | 'extension' | 'language';
export interface CounterDelta {
  day: string;
  kind: CounterKind;
  names: [string, string, string];
  count: number;
}

export interface RollupDeltas {
  userDays: UserDayDelta[];
  models: ModelDelta[];
  counters: CounterDelta[];
}

// Where each client, delegation level and autonomy level is counted (`auto-high` → `sessions_auto_high`).
const indexes = <T extends string>(values: readonly T[], prefix: string) =>
  Object.fromEntries(values.map((v) => [v, U[`${prefix}_${v.replace(/-/g, '_')}` as keyof typeof U]])) as Record<T, number>;
const byClient = indexes(CLIENTS, 'events');
const bySessionLevel = indexes(DELEGATION_LEVELS, 'sessions');
const byToolLevel = indexes(AUTONOMY_LEVELS, 'tools');

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

/** A later session wins; at the same millisecond the greater level, so the order of arrival never matters. */
export const laterSession = (a: { ms: number; level: string }, b: { ms: number; level: string }): boolean =>
  a.ms > b.ms || (a.ms === b.ms && a.level > b.level);

type DelegationLevel = (typeof DELEGATION_LEVELS)[number];
type AutonomyLevel = (typeof AUTONOMY_LEVELS)[number];

/** The kind of tokens a model request given by its parts counts. */
export type TokenKind = 'input' | 'output' | 'cacheRead' | 'cacheWrite';

/**
 * A counter increment: what `amount` events of one kind add to one user's day, given by its parts
 * rather than as events (OTLP's counter data points, a value of up to 10,000 each, and token data
 * points: docs/otlp.md, Rollups). It counts in the rollups exactly as `amount` events of its
 * type, day, user, client and fields would; `tokens`, one model request of its day, user, client
 * and model, of the tier `standard`, with `amount` tokens of its kind and none of the others.
 * Names are as native events' fields (analytics cuts them to its bounds).
 */
export type Increment = {
  day: string;
  userId: string;
  client: Client;
  amount: number;
  /** The session it belongs to, when its record names one (analytics by repository). */
  sessionId?: string;
  /** The session's repository, when its record tells it. */
  repo?: RepoHint;
} & (
  | { counter: 'sessions'; ms: number; level: DelegationLevel }
  | { counter: 'tool_calls'; tool: string; autonomyLevel: AutonomyLevel; mcpServer: string | undefined }
  | { counter: 'skill_calls' | 'slash_commands'; name: string }
  | { counter: 'hooks'; event: string; matcher: string; command: string }
  | { counter: 'files'; change: 'created' | 'edited'; path: string; language: string | undefined }
  | { counter: 'git_commits' | 'git_prs_created' }
  | { counter: 'tokens'; model: string; kind: TokenKind }
);

/**
 * What a set of newly stored events, and counter increments, add to each rollup row. Keys are sorted so that concurrent batches lock rollup rows in the same order and never
 * deadlock.
 */
export function rollupDeltas(events: readonly TelemetryEvent[], increments: readonly Increment[] = []): RollupDeltas {
  const userDays = new Map<string, UserDayDelta>();
  const models = new Map<string, ModelDelta>();
  const counters = new Map<string, CounterDelta>();
  // Each counter is found by its parts, day, kind and first name, then the others compared (an
  // event's are mostly a batch's few): its key, which only sorts, is built once, when it is new.
  // Keys join their parts with NUL, which no stored text can hold (validation refuses it).
  const counterIndex = new Map<string, Map<CounterKind, Map<string, CounterDelta[]>>>();
  const count = (day: string, kind: CounterKind, first: string, second = '', third = '', v = 1) => {
    const a = boundedName(first);
    const b = boundedName(second);
    const c = boundedName(third);
    const kinds = getOrAdd(counterIndex, day, () => new Map<CounterKind, Map<string, CounterDelta[]>>());
    const list = getOrAdd(
      getOrAdd(kinds, kind, () => new Map<string, CounterDelta[]>()),
      a,
      () => [],
    );
    for (const counter of list) {
      if (counter.names[1] === b && counter.names[2] === c) {
        counter.count += v;
        return;
      }
    }
    const counter: CounterDelta = { day, kind, names: [a, b, c], count: v };
    list.push(counter);
    counters.set(`${day}\0${kind}\0${a}\0${b}\0${c}`, counter);
  };

  let n: number[] = [];
  // By index, each site naming its counter (U.events): a lookup by a name that varies goes megamorphic.
  const add = (i: number, v = 1) => (n[i]! += v);

  // A batch's events are mostly one user's of one day: the last row is checked before the map.
  let ud: UserDayDelta | undefined;
  /** `v` events of this day, user and client: their user-day row, counting them (`n` is then its counts). */
  const enter = (day: string, userId: string, client: Client, v = 1): UserDayDelta => {
    if (ud === undefined || ud.day !== day || ud.userId !== userId) {
      ud = getOrAdd(userDays, `${day}\0${userId}`, () => ({
        day,
        userId,
        counts: new Array<number>(USER_DAY_COUNTS.length).fill(0),
        creditUnits: 0n,
        languages: new Set<string>(),
        lastSession: null,
      }));
    }
    n = ud.counts;
    add(U.events, v);
    n[byClient[client]]! += v;
    return ud;
  };
  // Each user-day's model rows, found by comparing model and tier (a user-day has a few) rather
  // than by a key built per event.
  const modelsOf = new Map<UserDayDelta, ModelDelta[]>();
  const modelOf = (of: UserDayDelta, model: string, tier: string): ModelDelta => {
    let list = modelsOf.get(of);
    if (list === undefined) modelsOf.set(of, (list = []));
    for (const m of list) if (m.model === model && m.tier === tier) return m;
    const key = `${of.day}\0${of.userId}\0${model}\0${tier}`;
    let m = models.get(key);
    if (m === undefined) models.set(key, (m = { day: of.day, userId: of.userId, model, tier, creditUnits: 0n, counts: [0, 0, 0, 0, 0] }));
    // The first eight are compared; a batch of more models finds the others in the map.
    if (list.length < 8) list.push(m);
    return m;
  };
  /** A model request of the entered user-day (`n` its counts). */
  const request = (of: UserDayDelta, model: string, tier: string, input: number, output: number, cacheRead: number, cacheWrite: number) => {
    add(U.input_tokens, input);
    add(U.output_tokens, output);
    add(U.cache_read_tokens, cacheRead);
    add(U.cache_write_tokens, cacheWrite);
    const mc = modelOf(of, model, tier).counts;
    mc[0] += 1;
    mc[1] += input;
    mc[2] += output;
    mc[3] += cacheRead;
    mc[4] += cacheWrite;
  };
  for (const e of events) {
    const row = enter(e.day, e.userId, e.client);
    const a = e.attrs as Record<string, string | number | undefined>;
    switch (e.type) {
      case 'session_start': {
        const level = a.delegationLevel as string;
        add(U.sessions);
        n[bySessionLevel[level as keyof typeof bySessionLevel]]! += 1;
        const s = { ms: e.ms, level };
        if (row.lastSession === null || laterSession(s, row.lastSession)) row.lastSession = s;
        break;
      }
      case 'message':
        add(U.messages);
        if (a.role === 'user') add(U.user_messages);
        break;
      case 'model_request':
        request(
          row,
          a.model as string,
          a.tier as string,
          a.inputTokens as number,
          a.outputTokens as number,
          a.cacheReadTokens as number,
          a.cacheWriteTokens as number,
        );
        break;
      case 'tool_call':
        add(U.tool_calls);
        n[byToolLevel[a.autonomyLevel as keyof typeof byToolLevel]]! += 1;
        count(e.day, 'tool', a.tool as string);
        if (a.mcpServer !== undefined) {
          add(U.mcp_calls);
          count(e.day, 'mcp_server', a.mcpServer as string);
        }
        break;
      case 'skill':
        add(U.skill_calls);
        count(e.day, 'skill', a.name as string);
        break;
      case 'slash_command':
        add(U.slash_commands);
        count(e.day, 'slash_command', a.name as string);
        break;
      case 'hook':
        add(U.hooks);
        count(e.day, 'hook', a.event as string, a.matcher as string, a.command as string);
        break;
      case 'file_change': {
        add(a.change === 'created' ? U.files_created : U.files_edited);
        count(e.day, 'extension', extensionOf(a.path as string));
        const language = languageOf(a.path as string, a.language as string | undefined);
        if (language !== undefined) {
          count(e.day, 'language', language);
          row.languages.add(boundedName(language));
        }
        break;
      }
      case 'git_commit':
        add(U.git_commits);
        break;
      case 'pr_created':
        add(U.git_prs_created);
        break;
    }
  }
  for (const c of increments) {
    const v = c.amount;
    if (c.counter === 'tokens') {
      // One request of `v` tokens of one kind.
      const kind = c.kind;
      request(
        enter(c.day, c.userId, c.client),
        c.model,
        'standard',
        kind === 'input' ? v : 0,
        kind === 'output' ? v : 0,
        kind === 'cacheRead' ? v : 0,
        kind === 'cacheWrite' ? v : 0,
      );
      continue;
    }
    const row = enter(c.day, c.userId, c.client, v);
    switch (c.counter) {
      case 'sessions': {
        add(U.sessions, v);
        n[bySessionLevel[c.level]]! += v;
        const s = { ms: c.ms, level: c.level };
        if (row.lastSession === null || laterSession(s, row.lastSession)) row.lastSession = s;
        break;
      }
      case 'tool_calls':
        add(U.tool_calls, v);
        n[byToolLevel[c.autonomyLevel]]! += v;
        count(c.day, 'tool', c.tool, '', '', v);
        if (c.mcpServer !== undefined) {
          add(U.mcp_calls, v);
          count(c.day, 'mcp_server', c.mcpServer, '', '', v);
        }
        break;
      case 'skill_calls':
        add(U.skill_calls, v);
        count(c.day, 'skill', c.name, '', '', v);
        break;
      case 'slash_commands':
        add(U.slash_commands, v);
        count(c.day, 'slash_command', c.name, '', '', v);
        break;
      case 'hooks':
        add(U.hooks, v);
        count(c.day, 'hook', c.event, c.matcher, c.command, v);
        break;
      case 'files': {
        add(c.change === 'created' ? U.files_created : U.files_edited, v);
        count(c.day, 'extension', extensionOf(c.path), '', '', v);
        const language = languageOf(c.path, c.language);
        if (language !== undefined) {
          count(c.day, 'language', language, '', '', v);
          row.languages.add(boundedName(language));
        }
        break;
      }
      case 'git_commits':
        add(U.git_commits, v);
        break;
      case 'git_prs_created':
        add(U.git_prs_created, v);
        break;
    }
  }
  // Credits are linear in the tokens: each model row's are worked out once from its sums, which
  // are exact (a sum past 2^53 - 1 is refused by the rollups' bounds, migration 0014).
  for (const md of models.values()) {
    const [, input, output, cacheRead, cacheWrite] = md.counts;
    md.creditUnits = creditUnits(md.model, { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite });
    (userDays.get(`${md.day}\0${md.userId}`) as UserDayDelta).creditUnits += md.creditUnits;
  }
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
  return { userDays: sorted(userDays), models: sorted(models), counters: sorted(counters) };
}
