import { hash } from 'node:crypto';
import type { Increment, TokenKind } from '../../analytics/rollups.js';
import type { TelemetryEvent } from '../../events/event.js';
import type { Client } from '../../events/schemas.js';
import type { AttrValue, Attrs, Origin } from '../records.js';

/**
 * A native event (contract §4) made from an OTLP record. It has a TelemetryEvent's fields from
 * the start, its user and day empty until the service gives it its user (collect.ts), so that
 * the event the rollups receive is this object rather than a copy of it.
 */
export type NativeEvent = TelemetryEvent & {
  type:
    | 'session_start'
    | 'message'
    | 'model_request'
    | 'tool_call'
    | 'skill'
    | 'slash_command'
    | 'hook'
    | 'file_change'
    | 'git_commit'
    | 'pr_created'
    | 'pr_merged';
  attrs: Record<string, string | number>;
};

/** When, in which session and from which client a record's events come. */
export interface EventBase {
  ms: number;
  sessionId: string;
  client: Client;
}

/** An event of a record, before it has its user: every mapping makes its events here, so they all share one shape. */
export function nativeEvent(id: string, type: NativeEvent['type'], base: EventBase, attrs: NativeEvent['attrs']): NativeEvent {
  return { id, type, ms: base.ms, day: '', sessionId: base.sessionId, client: base.client, userId: '', attrs };
}

/**
 * What a counter or token data point adds, by its parts (Increment in analytics/rollups.ts), with
 * no event object per unit (docs/otlp.md, Rollups); its day and user empty until the service
 * gives it its user, as a native event's, and `ms` its time.
 */
export type Counted = Increment & { ms: number };

/** A counter's parts: what it counts and its names, without its day, user, client and amount. */
export type CounterParts = Increment extends infer I
  ? I extends { counter: 'tokens' }
    ? never
    : Omit<I, 'day' | 'userId' | 'client' | 'amount' | 'ms'>
  : never;

/** A data point's tokens of one kind for one model: one model request, counted by its parts. */
export function tokenCount(ms: number, client: Client, model: string, kind: TokenKind, tokens: number): Counted {
  return { ms, day: '', userId: '', client, amount: tokens, counter: 'tokens', model, kind };
}

/**
 * What a mapping makes of a record: events (and a counter it adds to: a Droid point names its
 * session too), a counter or tokens, a reason to reject it, or nothing (a signal no figure uses).
 */
export type Mapped = { events: NativeEvent[]; counted?: Counted } | Counted | { reject: string; unmapped?: string } | { ignore: true };
export const IGNORE: Mapped = { ignore: true };
/** A record that counts nothing, such as a token count of 0. */
export const NOTHING: Mapped = { events: [] };

/**
 * Stable ids: the same record (or data point) sent again makes the same events, which the store
 * keeps once. The id is a hash of the key's JSON; stored events carry it, so it must never change
 * for a given key (a retry after an upgrade would count twice). The one-shot hash is the same
 * SHA-256 as before, without a Hash object per id.
 */
export function eventId(key: unknown): string {
  return idOfJson(JSON.stringify(key));
}

/**
 * A text's JSON as JSON.stringify writes it: the text in quotes, or JSON.stringify's own escaping
 * when it holds a quote, a backslash, a control character or a surrogate (a lone one is escaped).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
const jsonText = (s: string): string => (ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`);
const jsonTextOrNull = (s: string | null): string => (s === null ? 'null' : jsonText(s));

/**
 * eventId([first, second, third, fourth, fifth]) of texts and nulls, as a Claude Code event's key
 * is, written without an array to walk: JSON.stringify's general walk was most of the cost of a
 * log record's id besides the hash (test/otlp/ids.test.ts holds the two equal).
 */
export function textsId(first: string, second: string, third: string, fourth: string | null, fifth: string | null): string {
  return idOfJson(`[${jsonText(first)},${jsonText(second)},${jsonText(third)},${jsonTextOrNull(fourth)},${jsonTextOrNull(fifth)}]`);
}

/** What every OTLP id starts with; the key follows it. */
export const ID_PREFIX = 'otlp:';

/** The key of the id of a key's JSON: what follows ID_PREFIX. */
const keyOfJson = (json: string) => hash('sha256', json, 'base64url').slice(0, 32);
const idOfJson = (json: string) => `${ID_PREFIX}${keyOfJson(json)}`;

/**
 * eventId([kind, origin.resource, ...rest]), the key of a record by its origin, with the resource
 * serialized once per export instead of once per record: a resource's attributes are often
 * most of a key's bytes. Equal to eventId for every key (test/otlp/ids.test.ts).
 */
export function originId(kind: string, origin: Origin, ...rest: unknown[]): string {
  return idOfJson(`${originPrefix(kind, origin, ...rest)}]`);
}

/**
 * The start of originId's key up to `rest`; `originId(kind, origin, ...rest, ...more)` is
 * ID_PREFIX and `keyOfPrefix(originPrefix(kind, origin, ...rest), ...more)`, so records sharing
 * their first parts (the data points of one metric) serialize them once. The export works with
 * the keys (an id without ID_PREFIX) that these make.
 */
export function originPrefix(kind: string, origin: Origin, ...rest: unknown[]): string {
  let json = `[${JSON.stringify(kind)},${origin.resourceJson}`;
  // JSON.stringify writes undefined in an array as null.
  for (const part of rest) json += `,${JSON.stringify(part) ?? 'null'}`;
  return json;
}

/** The key of originId from its serialized start (originPrefix) and its last parts. */
export function keyOfPrefix(prefix: string, ...rest: unknown[]): string {
  return keyOfJson(`${prefix}${originTail(...rest)}]`);
}

/** The last parts of originId's key, serialized: `keyOfParts(prefix, part, originTail(...rest))` is `keyOfPrefix(prefix, part, ...rest)`. */
export function originTail(...rest: unknown[]): string {
  let json = '';
  // JSON.stringify writes undefined in an array as null.
  for (const part of rest) json += `,${JSON.stringify(part) ?? 'null'}`;
  return json;
}

/** The key of originId from its serialized start and end around one part (a data point's attributes between its metric and its times). */
export function keyOfParts(prefix: string, part: unknown, tail: string): string {
  return keyOfJson(`${prefix},${JSON.stringify(part) ?? 'null'}${tail}]`);
}

/** The first of these attributes that is a non-empty string or a number, as text. */
export const text = (attrs: Attrs, key: string, second?: string, third?: string): string | undefined =>
  textOf(attrs[key]) ?? (second === undefined ? undefined : (textOf(attrs[second]) ?? (third === undefined ? undefined : textOf(attrs[third]))));

/**
 * An attribute value as text: a non-empty string, or a number. Hot paths read their attributes
 * as `textOf(attrs['key'])`, each at a site of its own: through text(), one site sees every key
 * and every record's shape, and V8's lookup there goes megamorphic (a generic probe for each
 * read, most of them misses), several per cent of a metric export's time.
 */
export const textOf = (v: AttrValue | undefined): string | undefined =>
  typeof v === 'string' ? (v === '' ? undefined : v) : typeof v === 'number' ? String(v) : undefined;

export const num = (v: AttrValue | undefined): number | undefined => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) return Number(v);
  return undefined;
};

/** At most this much from one data point: a counter's delta is a handful, not millions. */
export const MAX_EVENTS_PER_POINT = 10_000;

/**
 * A counter's (delta) value as an increment of `parts`, counted as that many events; a value
 * that is not a small whole number of at least 0 is a reason to reject the point, and 0 counts
 * nothing.
 */
export function counted(value: number, ms: number, client: Client, parts: CounterParts): Mapped {
  if (!Number.isFinite(value) || value < 0) return { reject: 'a counter value below 0 or not a number' };
  const n = Math.round(value);
  if (n > MAX_EVENTS_PER_POINT) return { reject: `a counter value above ${MAX_EVENTS_PER_POINT} in one data point` };
  return n === 0 ? NOTHING : ({ ms, day: '', userId: '', client, amount: n, ...parts } as Counted);
}

/** A token count: a whole number from 0 to a trillion (the native event's bound). */
export function tokens(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const n = Math.round(value);
  return n > 1_000_000_000_000 ? undefined : n;
}

/** The tokens of one model request, each kind counted (0 when the record has none of it). */
export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function modelRequest(id: string, base: EventBase, model: string, t: Tokens): NativeEvent {
  return nativeEvent(id, 'model_request', base, {
    model,
    tier: 'standard',
    inputTokens: t.input,
    outputTokens: t.output,
    cacheReadTokens: t.cacheRead,
    cacheWriteTokens: t.cacheWrite,
  });
}
