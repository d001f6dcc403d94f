import type { Increment } from '../analytics/rollups.js';
import { utcDay } from '../core/days.js';
import type { TelemetryEvent } from '../events/event.js';
import { parseTimestamp } from '../events/timestamps.js';
import { clean, type Owner } from './attribution.js';
import { ID_PREFIX, type Counted, type Mapped, type NativeEvent } from './mappings/native.js';
import { KEY_CHARS } from './seen-store.js';
import type { RecordPlace } from './repository.js';

/** Reasons are listed once each, a few of them, so the message stays short. */
export class Rejections {
  count = 0;
  private readonly reasons: string[] = [];
  /** The kinds of a known agent's records that no mapping reads (mappings/index.ts), for a warning in the log. */
  readonly unmapped = new Set<string>();
  add(reason: string, n = 1, unmapped?: string): void {
    this.count += n;
    if (this.reasons.length < 5 && !this.reasons.includes(reason)) this.reasons.push(reason);
    if (unmapped !== undefined) this.unmapped.add(unmapped);
  }
  message(): string {
    return this.count === 0 ? '' : `${this.count} record(s) not used: ${this.reasons.join('; ')}`;
  }
}

/**
 * A record counted through its group's row: the group's key (a delta point's collection: its
 * metric, resource, scope, start and time; a Claude Code event's session and minute) and the
 * record's time.
 */
export interface Grouped {
  group: string;
  ms: number;
}

/**
 * What an export's records make, each entry with its id, its key and, for a grouped record's, its
 * group (side by side, so that the keys made for the records are not read back from the ids), and
 * what it counts, an event or an increment (`items`); the events and the increments also each in
 * a list of their own, which the rollups take when every entry counts.
 */
export class Collected {
  readonly ids: string[] = [];
  readonly keys: string[] = [];
  readonly groups: (Grouped | undefined)[] = [];
  readonly items: (TelemetryEvent | Increment)[] = [];
  readonly events: TelemetryEvent[] = [];
  readonly increments: Increment[] = [];
  get length(): number {
    return this.ids.length;
  }
  addEvent(event: TelemetryEvent, key: string, grouped: Grouped | undefined): void {
    this.entry(event.id, key, grouped, event);
    this.events.push(event);
  }
  addIncrement(id: string, key: string, grouped: Grouped | undefined, increment: Increment): void {
    this.entry(id, key, grouped, increment);
    this.increments.push(increment);
  }
  private entry(id: string, key: string, grouped: Grouped | undefined, item: TelemetryEvent | Increment): void {
    this.ids.push(id);
    this.keys.push(key);
    this.groups.push(grouped);
    this.items.push(item);
  }
  /** Takes back the entries after the first `length`: only a record's events are ever taken back (it counts whole). */
  truncate(length: number): void {
    this.events.length -= this.length - length;
    this.ids.length = this.keys.length = this.groups.length = this.items.length = length;
  }
}

/**
 * A mapped record's events and increments, given their user and checked like native events'
 * times (against the export's now), with their keys: `id` and `key` are the record's (undefined
 * for what counts without a key), and `grouped` its group when it has one; or its rejection. An
 * increment (a counter's or tokens') is collected under the record's id and key.
 */
export function collect(
  mapped: Mapped,
  owner: Owner,
  out: Collected,
  rejections: Rejections,
  nowMs: number,
  id: string,
  key: string | undefined,
  grouped: Grouped | undefined,
  place?: RecordPlace,
): void {
  if ('ignore' in mapped) return;
  if ('reject' in mapped) return rejections.add(mapped.reject, 1, mapped.unmapped);
  if ('counter' in mapped) {
    if ('reject' in owner) return rejections.add(owner.reject);
    const ts = parseTimestamp(mapped.ms, nowMs);
    if ('error' in ts) return rejections.add(`a record whose time ${ts.error}`);
    return out.addIncrement(id, key ?? '', grouped, placed(owns(mapped, owner.userId, ts.ms), place));
  }
  const increment = mapped.counted;
  if (mapped.events.length === 0 && increment === undefined) return;
  if ('reject' in owner) return rejections.add(owner.reject);
  // A record counts whole or not at all.
  let incrementMs = 0;
  if (increment !== undefined) {
    const ts = parseTimestamp(increment.ms, nowMs);
    if ('error' in ts) return rejections.add(`a record whose time ${ts.error}`);
    incrementMs = ts.ms;
  }
  const before = out.length;
  for (const e of mapped.events) {
    const ts = parseTimestamp(e.ms, nowMs);
    if ('error' in ts) {
      out.truncate(before);
      return rejections.add(`a record whose time ${ts.error}`);
    }
    // The record's own id mostly (read from it otherwise: a Droid session's event has a key of its own).
    const own = key === undefined || e.id === id ? key : keyOfId(e.id);
    const event = owned(e, owner.userId, ts.ms);
    if (place?.repo !== undefined) event.repo = place.repo;
    out.addEvent(event, own ?? '', own === key ? grouped : undefined);
  }
  if (increment !== undefined) out.addIncrement(id, key ?? '', grouped, placed(owns(increment, owner.userId, incrementMs), place));
}

/** An increment given the session its record names (else it belongs to no repository) and that session's repository. */
function placed(c: Increment, place: RecordPlace | undefined): Increment {
  if (place?.sessionId === undefined) return c;
  c.sessionId = clean(place.sessionId, 200);
  if (place.repo !== undefined) c.repo = place.repo;
  return c;
}

/** The key an OTLP event's id carries (eventId/originId in mappings/native.ts). */
export function keyOfId(id: string): string {
  if (!id.startsWith(ID_PREFIX) || (id.length !== ID_PREFIX.length + KEY_CHARS && id[ID_PREFIX.length + KEY_CHARS] !== '#')) {
    throw new Error(`an OTLP event id not made by eventId: ${id.slice(0, 60)}`);
  }
  return id.slice(ID_PREFIX.length, ID_PREFIX.length + KEY_CHARS);
}

const maxLength = (attr: string) => (attr === 'command' || attr === 'path' ? 4000 : 200);

/** A mapping's attributes as stored: kept as they are when already clean (the mappings never change them later), else a cleaned copy. */
function cleanAttrs(attrs: NativeEvent['attrs']): NativeEvent['attrs'] {
  let dirty = false;
  for (const k in attrs) {
    const v = attrs[k];
    if (typeof v === 'string' && clean(v, maxLength(k)) !== v) dirty = true;
  }
  if (!dirty) return attrs;
  const out: NativeEvent['attrs'] = {};
  for (const k in attrs) {
    const v = attrs[k] as string | number;
    out[k] = typeof v === 'string' ? clean(v, maxLength(k)) : v;
  }
  return out;
}

/** The names an increment may have, cleaned as an event's attributes of the same names are. */
const NAMES = ['tool', 'mcpServer', 'name', 'event', 'matcher', 'command', 'path', 'language'] as const;

/**
 * The increment given its user and its checked time, its names cleaned: the mapping's own object,
 * which nothing else holds, filled in rather than copied.
 */
function owns(c: Counted, userId: string, ms: number): Increment {
  c.userId = userId;
  c.ms = ms;
  c.day = utcDay(ms);
  if (c.counter === 'tokens') c.model = clean(c.model, 200);
  else {
    const named = c as unknown as Record<string, unknown>;
    for (const k of NAMES) {
      const v = named[k];
      if (typeof v === 'string') named[k] = clean(v, maxLength(k));
    }
  }
  return c;
}

/**
 * The event given its user and its checked time, its fields cleaned: the mapping's own object,
 * which nothing else holds, filled in rather than copied.
 */
function owned(e: NativeEvent, userId: string, ms: number): TelemetryEvent {
  e.userId = userId;
  e.ms = ms;
  e.day = utcDay(ms);
  e.sessionId = clean(e.sessionId, 200) || 'otlp';
  e.attrs = cleanAttrs(e.attrs);
  return e;
}
