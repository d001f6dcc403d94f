import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { utcDay } from '../core/days.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import type { ModelRequest } from '../analytics/rollups.js';
import type { AnalyticsService } from '../analytics/service.js';
import { dateParse, parseTimestamp } from '../events/timestamps.js';
import type { TelemetryEvent } from '../events/event.js';
import { ID_PREFIX, keyOfParts, keyOfPrefix, originId, originPrefix, originTail, textOf, type Mapped, type NativeEvent } from './mappings/native.js';
import { groupKey, logGroup, logId, mapLog, mapPoint, mapSpan, qualifiedLogName } from './mappings/index.js';
import { nsToMs, type Attrs, type LogRecordIn, type MetricPoint, type MetricPoints, type SpanIn } from './records.js';
import { MAX_RECORDS_PER_GROUP, seenGroupsStore } from './seen-groups-store.js';
import { KEY_CHARS, seenStore } from './seen-store.js';
import { MAX_STREAMS_PER_SET, type StreamSet, type StreamState } from './stream-set.js';
import { streamsStore } from './streams-store.js';

/** What the export response reports: records that could not be used (OTLP partial success). */
export interface ExportOutcome {
  rejected: number;
  errorMessage: string;
  /** Events counted now (the rest were counted before: a retried export). */
  stored: number;
}

/** The user a record names, or why it cannot be used. */
type Owner = { userId: string } | { reject: string };

/** Reasons are listed once each, a few of them, so the message stays short. */
class Rejections {
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

/** Text columns cannot hold NUL; ids and names are bounded like native events' (the rollups cut names further). */
const clean = (s: string, max: number) => (s.length <= max && !s.includes('\0') ? s : s.replaceAll('\0', '').slice(0, max));

/**
 * OTLP ingestion (docs/otlp.md): decodes nothing itself (the routes do), attributes each record
 * to a user, maps it through its client's mapping to native events, turns cumulative streams
 * into deltas, and in one transaction records the keys of its records as seen (otlp_seen_groups,
 * otlp_seen) and hands the events of the records seen for the first time to analytics' rollups,
 * so every analytics figure shows it exactly as it shows native events. No event row is stored.
 */
export class OtlpService {
  private readonly leftovers = new LRUCache<string, Leftovers>({ max: 10_000 });

  constructor(
    private readonly db: Db,
    private readonly identity: IdentityService,
    private readonly analytics: AnalyticsService,
    private readonly clock: Clock = systemClock,
  ) {}

  async exportLogs(caller: Principal, records: readonly LogRecordIn[]): Promise<ExportOutcome> {
    const rejections = new Rejections();
    const collected = new Collected();
    const nowMs = this.clock.now().getTime();
    const owners = await this.owners(caller, records, (r) => r.name);
    // The keys of the export's groups by session and minute: mostly one or two.
    const groupKeys = new Map<string, Map<number, string>>();
    records.forEach((r, i) => {
      const name = qualifiedLogName(r);
      const when = textOf(r.attrs['event.timestamp']);
      const parsed = when ? dateParse(when) : Number.NaN;
      const ms = Number.isNaN(parsed) ? nsToMs(r.timeNs) : parsed;
      const id = logId(r, name);
      const group = logGroup(r, name, parsed);
      let grouped: Grouped | undefined;
      if (group !== undefined) {
        const [session, minute] = group;
        let minutes = groupKeys.get(session);
        if (minutes === undefined) groupKeys.set(session, (minutes = new Map()));
        let key = minutes.get(minute);
        if (key === undefined) minutes.set(minute, (key = keyOfId(groupKey(group))));
        grouped = { group: key, ms };
      }
      this.collect(mapLog({ record: r, name, id, ms }), owners[i] as Owner, collected, rejections, nowMs, id, keyOfId(id), grouped);
    });
    const stored = await this.store(caller.orgId, collected, { full: `more than ${MAX_RECORDS_PER_GROUP} events of one session in one minute`, rejections });
    return { rejected: rejections.count, errorMessage: rejections.message(), stored };
  }

  async exportSpans(caller: Principal, list: readonly SpanIn[]): Promise<ExportOutcome> {
    const rejections = new Rejections();
    const collected = new Collected();
    const nowMs = this.clock.now().getTime();
    const owners = await this.owners(caller, list, (s) => s.name);
    list.forEach((s, i) => {
      const id = originId('span', s, s.scope, s.name, s.attrs, s.startNs.toString(), s.endNs.toString());
      this.collect(mapSpan({ span: s, id, ms: nsToMs(s.endNs || s.startNs) }), owners[i] as Owner, collected, rejections, nowMs, id, keyOfId(id), undefined);
    });
    const stored = await this.store(caller.orgId, collected);
    return { rejected: rejections.count, errorMessage: rejections.message(), stored };
  }

  async exportMetrics(caller: Principal, { points, rejected }: MetricPoints): Promise<ExportOutcome> {
    const rejections = new Rejections();
    for (const reason of rejected.reasons) rejections.add(reason, 0);
    rejections.count += rejected.count;
    const owners = await this.owners(caller, points, (p) => p.metric);
    const collected = new Collected();
    const nowMs = this.clock.now().getTime();
    // Cumulative points with their stream's key and its set's (the stream's metric, resource and scope).
    // (`states`, `at`: its set's states and where its stream is in them, once they are read.)
    const cumulative: Cumulative[] = [];
    // The points of one metric share the start of their keys (originPrefix) and their
    // collection's; the points of one collection (mostly all of them), the times too.
    let metric: { point: MetricPoint; prefix: string; collectionPrefix: string; streamPrefix: string; set: string } | undefined;
    let times: { startNs: bigint; timeNs: bigint; tail: string; grouped: Grouped } | undefined;
    points.forEach((point, i) => {
      const owner = owners[i] as Owner;
      if (point.kind === 'gauge') return;
      if (metric?.point.resourceJson !== point.resourceJson || metric.point.scope !== point.scope || metric.point.metric !== point.metric) {
        const [prefix, collectionPrefix, streamPrefix] = ['point', 'collection', 'stream'].map((kind) =>
          originPrefix(kind, point, point.scope, point.metric),
        ) as [string, string, string];
        // streamSetKey(point), serialized once for the metric.
        metric = { point, prefix, collectionPrefix, streamPrefix, set: keyOfPrefix(streamPrefix) };
        times = undefined;
      }
      if (point.temporality === 'cumulative') {
        // streamKey(point), its resource, scope and metric serialized once for the metric.
        cumulative.push({ point, owner, set: metric.set, key: keyOfParts(metric.streamPrefix, point.attrs, ''), states: undefined, at: -1 });
        return;
      }
      if (times?.startNs !== point.startNs || times.timeNs !== point.timeNs) {
        const [start, time] = [point.startNs.toString(), point.timeNs.toString()];
        times = {
          startNs: point.startNs,
          timeNs: point.timeNs,
          tail: originTail(start, time),
          grouped: { group: keyOfPrefix(metric.collectionPrefix, start, time), ms: nsToMs(point.timeNs) },
        };
      }
      // A delta point is counted through its collection's row.
      const key = keyOfParts(metric.prefix, point.attrs, times.tail);
      const idBase = `${ID_PREFIX}${key}`;
      this.collect(mapPoint({ point, value: point.value, idBase, ms: times.grouped.ms }), owner, collected, rejections, nowMs, idBase, key, times.grouped);
    });
    // Once per organization (then kept), so outside the transaction.
    const streamsBefore = cumulative.length > 0 && (await this.leftoversOf(caller.orgId)).streamsBefore;
    const stored = await this.db.transaction(async (tx) => {
      // A cumulative point's step counts once by its stream's state alone: it records no key.
      const steps = new Collected();
      const sets = await streamsStore.lock(tx, caller.orgId, [...new Set(cumulative.map((c) => c.set))]);
      const outside = new Set<string>();
      for (const c of cumulative) {
        c.states = sets.get(c.set) as StreamSet;
        c.at = c.states.find(c.key);
        if (c.at === -1) outside.add(c.key);
      }
      const before = outside.size > 0 && streamsBefore ? await streamsStore.before(tx, caller.orgId, [...outside]) : NO_STATES;
      // Point after point in time order, so that several points of one stream in one export count
      // step by step (an export's points mostly share their time: then they are in order already).
      if (!inTimeOrder(cumulative)) cumulative.sort((a, b) => (a.point.timeNs < b.point.timeNs ? -1 : a.point.timeNs > b.point.timeNs ? 1 : 0));
      for (const c of cumulative) {
        const set = c.states as StreamSet;
        // A stream new to its set may have joined it with an earlier point of this export.
        const at = c.at === -1 ? set.find(c.key) : c.at;
        const delta = deltaOf(c.point, at === -1 ? before.get(c.key) : set.stateAt(at));
        if (delta === undefined) continue;
        if (!set.set(c.key, at, c.point.startNs, c.point.timeNs, c.point.value)) {
          rejections.add(`more than ${MAX_STREAMS_PER_SET} cumulative streams of one metric`);
          continue;
        }
        if (delta === 0) continue;
        // A step's events are neither kept nor keyed (they go to the rollups alone): their ids only name their stream.
        const idBase = `step:${c.key}`;
        this.collect(
          mapPoint({ point: c.point, value: delta, idBase, ms: nsToMs(c.point.timeNs) }),
          c.owner,
          steps,
          rejections,
          nowMs,
          idBase,
          undefined,
          undefined,
        );
      }
      streamsStore.save(tx, caller.orgId, sets);
      return this.store(
        caller.orgId,
        collected,
        { full: `more than ${MAX_RECORDS_PER_GROUP} data points of one metric with the same start and time`, rejections },
        steps,
      );
    });
    return { rejected: rejections.count, errorMessage: rejections.message(), stored };
  }

  /**
   * Counts the events of the records not seen before, in one transaction (the caller's when it
   * has one): their keys are recorded as seen, their events (and model requests) go to the
   * rollups. An event's key is the record's id hash, the part of its id before `#` (a counter
   * point's events are `<idBase>#<i>`, a prompt's slash command `<id>#slash`); a Droid session's
   * event has its own. A record of a group (a delta point's collection, a Claude Code session's
   * minute) is recorded in its group's row (otlp_seen_groups), any other in otlp_seen. Of entries
   * sharing an id, the last counts. `once`: what counts without a key (the steps of cumulative
   * streams, which their streams' state keeps from counting twice). Returns how many events (and
   * requests) were counted.
   */
  private async store(orgId: string, collected: Collected, groups?: Groups, once?: Collected): Promise<number> {
    const { ids, keys: keyOf, groups: groupOf } = collected;
    const keys = new Set<string>();
    const members = new Map<string, Set<string>>();
    let grouped = 0;
    // Entries sharing an id share its key: only when some key comes again can ids repeat.
    let repeated = false;
    for (let i = 0; i < collected.length; i++) {
      const key = keyOf[i] as string;
      const of = groupOf[i];
      if (of === undefined) {
        if (keys.has(key)) repeated = true;
        else keys.add(key);
      } else {
        let group = members.get(of.group);
        if (group === undefined) members.set(of.group, (group = new Set()));
        if (group.has(key)) repeated = true;
        else {
          group.add(key);
          grouped++;
        }
      }
    }
    if (collected.length === 0 && (once?.length ?? 0) === 0) return 0;
    // The last of each id, where its first was.
    const unique = repeated ? [...new Map(ids.map((id, i) => [id, i])).values()] : undefined;
    const cutoff = members.size > 0 ? (await this.leftoversOf(orgId)).cutoff : null;
    return this.db.transaction(async (tx) => {
      // Sorted: concurrent exports sharing keys or groups wait on each other in one order, never in a cycle.
      const sorted = new Map([...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([g, k]) => [g, [...k]]));
      const inGroups = await seenGroupsStore.insertNew(tx, orgId, sorted);
      if (inGroups.overflow.length > 0) groups?.rejections.add(groups.full, inGroups.overflow.length);
      const before = cutoff === null ? EMPTY : await seenGroupsStore.seenBefore(tx, orgId, withTimes(collected, inGroups.fresh), cutoff);
      const fresh = keys.size > 0 ? await seenStore.insertNew(tx, orgId, [...keys].sort()) : null;
      // Usually every record is new: then every entry counts.
      const all = fresh === null && before.size === 0 && inGroups.fresh.size === grouped;
      const counts = (i: number) => {
        const key = keyOf[i] as string;
        if (groupOf[i] !== undefined) return inGroups.fresh.has(key) && !before.has(key);
        return fresh === null || fresh.has(key);
      };
      let events = collected.events;
      let requests = collected.requests;
      if (!all || unique !== undefined) {
        events = [];
        requests = [];
        for (const i of unique ?? collected.at.keys()) {
          if (!counts(i)) continue;
          const at = collected.at[i] as number;
          if (at >= 0) events.push(collected.events[at] as TelemetryEvent);
          else requests.push(collected.requests[-1 - at] as ModelRequest);
        }
      }
      if (once !== undefined) {
        events = events.concat(once.events);
        requests = requests.concat(once.requests);
      }
      const counted = events.length + requests.length;
      if (counted > 0) await this.analytics.recordBatch(orgId, events, requests);
      return counted;
    });
  }

  /** What the organization kept from before migrations 0052 and 0055, read once: only those migrations wrote it. */
  private async leftoversOf(orgId: string): Promise<Leftovers> {
    const kept = this.leftovers.get(orgId);
    if (kept !== undefined) return kept;
    const [cutoff, streamsBefore] = await Promise.all([seenGroupsStore.upgradeCutoff(this.db, orgId), streamsStore.anyBefore(this.db, orgId)]);
    const read = { cutoff, streamsBefore };
    this.leftovers.set(orgId, read);
    return read;
  }

  /**
   * A mapped record's events, given their user and checked like native events' times (against
   * the export's now), with their keys: `id` and `key` are the record's (undefined for events
   * counted without a key), and `grouped` its group when it has one; or its rejection. A token
   * count is collected as a model request by its parts, under the record's id and key.
   */
  private collect(
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

  /**
   * Who each record belongs to. A member's records are their own. An owner's or manager's key
   * (an organization-wide collector) attributes each record by what it names, first match wins:
   * `user.email`, `enduser.id` (as an email), then a user whose linked account id is
   * `user.account_id`, `user.account_uuid` or (Droid only) `user.id`. A record that names nobody
   * stays the caller's; one that names no user of the organization is rejected.
   */
  private async owners<R extends { attrs: Attrs; resource: Attrs }>(caller: Principal, records: readonly R[], nameOf: (r: R) => string): Promise<Owner[]> {
    const own: Owner = { userId: caller.id };
    if (!isManagerRole(caller.role)) return records.map(() => own);
    // Each record's email and account, and each of them once (an export mostly names a few).
    const emailsOf: (string | undefined)[] = [];
    const accountsOf: (string | undefined)[] = [];
    const emails = new Set<string>();
    const accounts = new Set<string>();
    for (const r of records) {
      const email = emailOf(r);
      const account = accountOf(r, nameOf(r));
      emailsOf.push(email);
      accountsOf.push(account);
      if (email) emails.add(email);
      if (account) accounts.add(account);
    }
    const [byEmail, byAccount] = await Promise.all([
      emails.size ? this.identity.usersByEmail(caller.orgId, [...emails]) : new Map<string, string>(),
      accounts.size ? this.identity.usersByAccount(caller.orgId, [...accounts]) : new Map<string, string>(),
    ]);
    return records.map((_, i) => {
      const email = emailsOf[i];
      const account = accountsOf[i];
      if (email === undefined && account === undefined) return own;
      const id = (email && byEmail.get(email.trim().toLowerCase())) || (account && byAccount.get(account));
      if (id) return { userId: id };
      return {
        reject: email
          ? `user ${clean(email, 100)} is not a user of this organization`
          : `account ${clean(account as string, 100)} is linked to no user of this organization (orgctl users link)`,
      };
    });
  }
}

// Each attribute is read at a site of its own (textOf in mappings/native.ts).
type Named = { attrs: Attrs; resource: Attrs };
const emailOf = (r: Named) =>
  textOf(r.attrs['user.email']) ?? textOf(r.resource['user.email']) ?? textOf(r.attrs['enduser.id']) ?? textOf(r.resource['enduser.id']);

/** The client account a record names; Claude Code's user.id is an anonymous installation id, so only Droid's counts. */
function accountOf(r: Named, name: string): string | undefined {
  const account =
    textOf(r.attrs['user.account_id']) ??
    textOf(r.resource['user.account_id']) ??
    textOf(r.attrs['user.account_uuid']) ??
    textOf(r.resource['user.account_uuid']);
  if (account) return account;
  const droid = name.startsWith('droid.') || (textOf(r.resource['service.name']) ?? '').includes('droid');
  return droid ? (textOf(r.attrs['user.id']) ?? textOf(r.resource['user.id'])) : undefined;
}

/**
 * The delta a cumulative point adds: its whole value the first time, the growth since the last
 * point otherwise, and its whole value again after a reset (a later start time or a lower value).
 * Undefined for a point at or before the last one counted: a retry, or late.
 */
export function deltaOf(p: MetricPoint, state: StreamState | undefined): number | undefined {
  if (!state || state.lastNs === 0n) return p.value;
  if (p.timeNs <= state.lastNs) return undefined;
  const reset = p.startNs > state.startNs || p.value < state.lastValue;
  return reset ? p.value : p.value - state.lastValue;
}

const EMPTY: ReadonlySet<string> = new Set();
const NO_STATES: ReadonlyMap<string, StreamState> = new Map();

/**
 * What an organization kept from before an upgrade: its upgradeCutoff (seen-groups-store.ts,
 * migration 0052), and whether it has stream states from before migration 0055 (streams-store.ts).
 */
interface Leftovers {
  cutoff: number | null;
  streamsBefore: boolean;
}

/** A cumulative point with its stream's key and its set's; its set's states and where its stream is in them, once read. */
interface Cumulative {
  point: MetricPoint;
  owner: Owner;
  set: string;
  key: string;
  states: StreamSet | undefined;
  /** -1: not in its set when the set was read. */
  at: number;
}

function inTimeOrder(points: readonly Cumulative[]): boolean {
  for (let i = 1; i < points.length; i++) if ((points[i - 1] as Cumulative).point.timeNs > (points[i] as Cumulative).point.timeNs) return false;
  return true;
}

/** The key an OTLP event's id carries (eventId/originId in mappings/native.ts). */
function keyOfId(id: string): string {
  if (!id.startsWith(ID_PREFIX) || (id.length !== ID_PREFIX.length + KEY_CHARS && id[ID_PREFIX.length + KEY_CHARS] !== '#')) {
    throw new Error(`an OTLP event id not made by eventId: ${id.slice(0, 60)}`);
  }
  return id.slice(ID_PREFIX.length, ID_PREFIX.length + KEY_CHARS);
}

/**
 * A record counted through its group's row: the group's key (a delta point's collection: its
 * metric, resource, scope, start and time; a Claude Code event's session and minute) and the
 * record's time.
 */
interface Grouped {
  group: string;
  ms: number;
}

/** The reason to give for grouped records past a full group. */
interface Groups {
  full: string;
  rejections: Rejections;
}

/**
 * What an export's records make, each entry with its id, its key and, for a grouped record's, its
 * group (side by side, so that the keys made for the records are not read back from the ids): an
 * event, or a model request by its parts (a token count); `at` is where the entry's event (at >= 0)
 * or request (at -1 - i in `requests`) is.
 */
class Collected {
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

/** These grouped records' keys with their times. */
function withTimes(collected: Collected, keys: ReadonlySet<string>): { key: string; ms: number }[] {
  const times = new Map<string, number>();
  collected.groups.forEach((g, i) => g !== undefined && times.set(collected.keys[i] as string, g.ms));
  return [...keys].map((key) => ({ key, ms: times.get(key) ?? 0 }));
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
