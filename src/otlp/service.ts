import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import type { Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import type { AnalyticsService } from '../analytics/service.js';
import { dateParse } from '../events/timestamps.js';
import { ownersOf, type Owner } from './attribution.js';
import { CONNECTION_REFRESH_MS, connectionsStore, type ClientExport } from './connections-store.js';
import { collect, Collected, keyOfId, Rejections, type Grouped } from './collect.js';
import { stepStreams, type Cumulative } from './cumulative.js';
import { countNew, type Groups } from './dedupe.js';
import { ID_PREFIX, keyOfParts, keyOfPrefix, originId, originPrefix, originTail, textOf } from './mappings/native.js';
import { agentOf, groupKey, logGroup, logId, mapLog, mapPoint, mapSpan, qualifiedLogName } from './mappings/index.js';
import { PreUpgrade } from './pre-upgrade.js';
import { placeOf } from './repository.js';
import { nsToMs, type Attrs, type LogRecordIn, type MetricPoint, type MetricPoints, type SpanIn } from './records.js';
import { MAX_RECORDS_PER_GROUP } from './seen-groups-store.js';

/** What the export response reports: records that could not be used (OTLP partial success). */
export interface ExportOutcome {
  rejected: number;
  errorMessage: string;
  /** Events counted now (the rest were counted before: a retried export). */
  stored: number;
  /** The kinds of a known agent's records that no mapping reads, rejected (Rejections.unmapped). */
  unmapped: string[];
}

export interface OtlpDeps {
  db: Db;
  /** Attributes each record to a user of the caller's organization. */
  identity: IdentityService;
  /** Given the events of the records seen for the first time, for the rollups. */
  analytics: AnalyticsService;
  /** How far in the future a record's time may be; by default the system's. */
  clock?: Clock;
}

/**
 * OTLP ingestion (docs/otlp.md): decodes nothing itself (the routes do), attributes each record
 * to a user (attribution.ts), maps it through its client's mapping to native events, turns
 * cumulative streams into deltas (cumulative.ts), and in one transaction records the keys of its
 * records as seen (dedupe.ts: otlp_seen_groups, otlp_seen) and hands the events of the records
 * seen for the first time to analytics' rollups, so every analytics figure shows it exactly as it
 * shows native events. No event row is stored. What an organization kept from before the
 * upgrades to groups and stream sets is read once (pre-upgrade.ts).
 */
export class OtlpService {
  private readonly preUpgrade: PreUpgrade;
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly analytics: AnalyticsService;
  private readonly clock: Clock;
  /** When this process last noted each user and client (noteClients): a busy client costs a statement a minute, not one per export. */
  private readonly noted = new Map<string, number>();

  constructor({ db, identity, analytics, clock = systemClock }: OtlpDeps) {
    this.db = db;
    this.identity = identity;
    this.analytics = analytics;
    this.clock = clock;
    this.preUpgrade = new PreUpgrade(db);
  }

  async exportLogs(caller: Principal, records: readonly LogRecordIn[]): Promise<ExportOutcome> {
    const rejections = new Rejections();
    const collected = new Collected();
    const nowMs = this.clock.now().getTime();
    const owners = await ownersOf(this.identity, caller, records, (r) => r.name);
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
      collect(mapLog({ record: r, name, id, ms }), owners[i] as Owner, collected, rejections, nowMs, id, keyOfId(id), grouped, placeOf(r.attrs, r.resource));
    });
    const stored = await this.store(caller.orgId, collected, { full: `more than ${MAX_RECORDS_PER_GROUP} events of one session in one minute`, rejections });
    await this.noteClients(caller.orgId, records, owners);
    return { rejected: rejections.count, errorMessage: rejections.message(), stored, unmapped: [...rejections.unmapped] };
  }

  async exportSpans(caller: Principal, list: readonly SpanIn[]): Promise<ExportOutcome> {
    const rejections = new Rejections();
    const collected = new Collected();
    const nowMs = this.clock.now().getTime();
    const owners = await ownersOf(this.identity, caller, list, (s) => s.name);
    list.forEach((s, i) => {
      const id = originId('span', s, s.scope, s.name, s.attrs, s.startNs.toString(), s.endNs.toString());
      const span = mapSpan({ span: s, id, ms: nsToMs(s.endNs || s.startNs) });
      collect(span, owners[i] as Owner, collected, rejections, nowMs, id, keyOfId(id), undefined, placeOf(s.attrs, s.resource));
    });
    const stored = await this.store(caller.orgId, collected);
    await this.noteClients(caller.orgId, list, owners);
    return { rejected: rejections.count, errorMessage: rejections.message(), stored, unmapped: [...rejections.unmapped] };
  }

  async exportMetrics(caller: Principal, { points, rejected }: MetricPoints): Promise<ExportOutcome> {
    const rejections = new Rejections();
    for (const reason of rejected.reasons) rejections.add(reason, 0);
    rejections.count += rejected.count;
    const owners = await ownersOf(this.identity, caller, points, (p) => p.metric);
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
      const mapped = mapPoint({ point, value: point.value, ms: times.grouped.ms });
      collect(mapped, owner, collected, rejections, nowMs, `${ID_PREFIX}${key}`, key, times.grouped, placeOf(point.attrs, point.resource));
    });
    // Once per organization (then kept), so outside the transaction.
    const streamsBefore = cumulative.length > 0 && (await this.preUpgrade.of(caller.orgId)).streamsBefore;
    const stored = await this.db.transaction(async () => {
      // A cumulative point's step counts once by its stream's state alone: it records no key.
      const steps = new Collected();
      await stepStreams(this.db, caller.orgId, cumulative, streamsBefore, rejections, (c, delta) => {
        // A step is neither kept nor keyed (it goes to the rollups alone): its id only names its stream.
        collect(
          mapPoint({ point: c.point, value: delta, ms: nsToMs(c.point.timeNs) }),
          c.owner,
          steps,
          rejections,
          nowMs,
          `step:${c.key}`,
          undefined,
          undefined,
          placeOf(c.point.attrs, c.point.resource),
        );
      });
      return this.store(
        caller.orgId,
        collected,
        { full: `more than ${MAX_RECORDS_PER_GROUP} data points of one metric with the same start and time`, rejections },
        steps,
      );
    });
    await this.noteClients(caller.orgId, points, owners);
    return { rejected: rejections.count, errorMessage: rejections.message(), stored, unmapped: [...rejections.unmapped] };
  }

  /** When the caller's records last arrived from each agent client (`orgctl connect --status`). */
  async connections(caller: Principal): Promise<{ clients: { client: string; lastExportAt: string }[] }> {
    const rows = await connectionsStore.ofUser(this.db, caller.id);
    return { clients: rows.map((r) => ({ client: r.client, lastExportAt: r.last_export_at.toISOString() })) };
  }

  /** Notes, once per export, which users' records came from which agent client (by service.name); records attributed to nobody are left out. */
  private async noteClients(orgId: string, records: readonly { resource: Attrs }[], owners: readonly Owner[]): Promise<void> {
    const seen = new Map<string, ClientExport>();
    // An export's records mostly share one resource object: its client is read once.
    let resource: Attrs | undefined;
    let client: string | undefined;
    records.forEach((r, i) => {
      const owner = owners[i];
      if (owner === undefined || !('userId' in owner)) return;
      if (r.resource !== resource) [resource, client] = [r.resource, agentOf(r.resource)];
      if (client !== undefined) seen.set(`${owner.userId} ${client}`, { userId: owner.userId, client });
    });
    const now = this.clock.now();
    const due = [...seen].filter(([key]) => (this.noted.get(key) ?? -Infinity) <= now.getTime() - CONNECTION_REFRESH_MS);
    if (due.length === 0) return;
    await connectionsStore.touch(
      this.db,
      orgId,
      due.map(([, row]) => row),
      now,
    );
    // Bounded: past this many pairs the map starts again (each pair then costs one statement more).
    if (this.noted.size > 100_000) this.noted.clear();
    for (const [key] of due) this.noted.set(key, now.getTime());
  }

  private store(orgId: string, collected: Collected, groups?: Groups, once?: Collected): Promise<number> {
    return countNew(this.db, this.preUpgrade, this.analytics, orgId, collected, groups, once);
  }
}
