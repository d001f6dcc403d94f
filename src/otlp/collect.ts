import type { ModelRequest } from '../analytics/rollups.js';
import { utcDay } from '../core/days.js';
import type { TelemetryEvent } from '../events/event.js';
import { parseTimestamp } from '../events/timestamps.js';
import { clean, type Owner } from './attribution.js';
import { ID_PREFIX, type Mapped, type NativeEvent } from './mappings/native.js';
import { KEY_CHARS } from './seen-store.js';

/** Reasons are listed once each, a few of them, so the message stays short. */
export class Rejections {
  count = 0;
  private readonly reasons: string[] = [];
  add(reason: string, n = 1): void {
    this.count += n;
    if (this.reasons.length < 5 && !this.reasons.includes(reason)) this.reasons.push(reason);
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
 * group (side by side, so that the keys made for the records are not read back from the ids): an
 * event, or a model request by its parts (a token count); `at` is where the entry's event (at >= 0)
 * or request (at -1 - i in `requests`) is.
 */
export class Collected {
  readonly ids: string[] = [];
  readonly keys: string[] = [];
  readonly groups: (Grouped | undefined)[] = [];
  readonly at: number[] = [];
  readonly events: TelemetryEvent[] = [];
  readonly requests: ModelRequest[] = [];
  get length(): number {
    return this.ids.length;
  }
  addEvent(event: TelemetryEvent, key: string, grouped: Grouped | undefined): void {
    this.entry(event.id, key, grouped, this.events.length);
    this.events.push(event);
  }
  addRequest(id: string, key: string, grouped: Grouped | undefined, request: ModelRequest): void {
    this.entry(id, key, grouped, -1 - this.requests.length);
    this.requests.push(request);
  }
  private entry(id: string, key: string, grouped: Grouped | undefined, at: number): void {
    this.ids.push(id);
    this.keys.push(key);
    this.groups.push(grouped);
    this.at.push(at);
  }
  /** Takes back the entries after the first `length`: only a record's events are ever taken back (it counts whole). */
  truncate(length: number): void {
    this.events.length -= this.length - length;
    this.ids.length = this.keys.length = this.groups.length = this.at.length = length;
  }
}

/**
 * A mapped record's events, given their user and checked like native events' times (against
 * the export's now), with their keys: `id` and `key` are the record's (undefined for events
 * counted without a key), and `grouped` its group when it has one; or its rejection. A token
 * count is collected as a model request by its parts, under the record's id and key.
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
): void {
  if ('ignore' in mapped) return;
  if ('reject' in mapped) return rejections.add(mapped.reject);
  if ('events' in mapped && mapped.events.length === 0) return;
  if ('reject' in owner) return rejections.add(owner.reject);
  if ('tokens' in mapped) {
    const ts = parseTimestamp(mapped.ms, nowMs);
    if ('error' in ts) return rejections.add(`a record whose time ${ts.error}`);
    mapped.day = utcDay(ts.ms);
    mapped.userId = owner.userId;
    mapped.model = clean(mapped.model, 200);
    return out.addRequest(id, key ?? '', grouped, mapped);
  }
  // A record counts whole or not at all.
  const before = out.length;
  for (const e of mapped.events) {
    const ts = parseTimestamp(e.ms, nowMs);
    if ('error' in ts) {
      out.truncate(before);
      return rejections.add(`a record whose time ${ts.error}`);
    }
    // The record's own id mostly (read from it otherwise: a Droid session's event has a key of its own).
    const own = key === undefined || e.id === id ? key : keyOfId(e.id);
    out.addEvent(owned(e, owner.userId, ts.ms), own ?? '', own === key ? grouped : undefined);
  }
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
