import { DbError, type Db, type Queryable } from '../core/db/db.js';
import { errors, type ErrorItem } from '../core/http/errors.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import { IdentityService } from '../core/identity/service.js';
import { AnalyticsService } from '../analytics/service.js';
import type { TelemetryEvent } from '../events/event.js';
import type { IngestBody, IngestResult } from './schemas.js';
import { telemetryStore as store } from './store.js';
import { validateEvents } from './validate-events.js';

export class TelemetryService {
  constructor(
    private readonly db: Db,
    private readonly identity = new IdentityService(db),
    private readonly analytics = new AnalyticsService(db),
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a batch atomically: every event is checked first, and one bad event
   * rejects the batch. Events whose id the organization already has, or that repeat an id
   * earlier in the batch, are duplicates and change nothing.
   */
  async ingest(caller: Principal, batch: IngestBody['events']): Promise<IngestResult> {
    const checked = validateEvents(batch, caller.id, this.now());
    if ('errors' in checked) throw errors.invalid(checked.errors);
    await this.checkAttribution(caller, batch);
    return this.store(caller.orgId, checked.events);
  }

  /**
   * The same path for a trusted importer inside the service (`orgctl demo seed`): every event
   * names its user, who must be a user of the organization.
   */
  async importEvents(orgId: string, batch: IngestBody['events']): Promise<IngestResult> {
    const missing = batch.flatMap((e, i) => (e.userId === undefined ? [{ path: `/events/${i}/userId`, message: 'is required for an import' }] : []));
    if (missing.length > 0) throw errors.invalid(missing);
    const checked = validateEvents(batch, '', this.now());
    if ('errors' in checked) throw errors.invalid(checked.errors);
    await this.checkUsersExist(orgId, batch.map((e, i) => ({ i, userId: e.userId as string })));
    return this.store(orgId, checked.events);
  }

  private async store(orgId: string, events: TelemetryEvent[]): Promise<IngestResult> {
    const seen = new Set<string>();
    const unique: TelemetryEvent[] = [];
    for (const e of events) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      unique.push(e);
    }
    // The statements are built before the transaction opens, so the database does not wait for them.
    const write = this.writeNew(orgId, unique);
    let stored: number;
    try {
      stored = await this.db.transaction(write);
    } catch (e) {
      throw sumsOutOfRange(e, events) ?? e;
    }
    return { accepted: stored, duplicates: events.length - stored };
  }

  /**
   * Stores events made inside the service (OTLP ingestion) in the caller's transaction: the ones
   * whose id is new, with their rollups. Returns how many were new.
   */
  async storeWithin(tx: Queryable, orgId: string, events: readonly TelemetryEvent[]): Promise<number> {
    return this.writeNew(orgId, [...new Map(events.map((e) => [e.id, e])).values()])(tx);
  }

  /** Only an owner or manager may name another user; the user must belong to the organization. */
  private async checkAttribution(caller: Principal, batch: IngestBody['events']): Promise<void> {
    const named = batch.map((e, i) => ({ i, userId: e.userId })).filter((x): x is { i: number; userId: string } => x.userId !== undefined && x.userId.toLowerCase() !== caller.id);
    if (named.length === 0) return;
    if (!isManagerRole(caller.role)) {
      throw errors.forbidden(`Only an owner or manager may attribute events to another user (/events/${named[0]!.i}/userId).`);
    }
    await this.checkUsersExist(caller.orgId, named);
  }

  private async checkUsersExist(orgId: string, named: { i: number; userId: string }[]): Promise<void> {
    const known = await this.identity.userIdsAmong(orgId, [...new Set(named.map((x) => x.userId.toLowerCase()))]);
    const unknown: ErrorItem[] = named
      .filter((x) => !known.has(x.userId.toLowerCase()))
      .map((x) => ({ path: `/events/${x.i}/userId`, message: 'names no user of this organization' }));
    if (unknown.length > 0) throw errors.invalid(unknown);
  }

  /**
   * The writes that store events of distinct ids, those whose id is new for the organization, with
   * their rollups; run inside a transaction, they return how many were new. The insert's
   * parameters are built at once, before the transaction needs them.
   */
  private writeNew(orgId: string, unique: TelemetryEvent[]): (tx: Queryable) => Promise<number> {
    if (unique.length === 0) return async () => 0;
    // Sorted ids: concurrent batches sharing ids wait on each other in one order, never in a cycle.
    unique.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const insertNew = store.insertNew(orgId, unique);
    return async (tx) => {
      const inserting = insertNew(tx);
      // Usually every event is new: the rollups of them all go out behind the insert, without
      // waiting for its answer, after a savepoint to return to should some ids be stored already.
      // Every statement is awaited before the transaction ends: one left running would fail
      // with nobody to hear it.
      const savepoint = tx.exec('SAVEPOINT all_new');
      const writingAll = this.analytics.recordBatch(tx, orgId, unique);
      const [inserted] = await Promise.all([inserting, savepoint, writingAll]);
      if (inserted === null) return unique.length;
      await tx.exec('ROLLBACK TO SAVEPOINT all_new');
      const fresh = unique.filter((e) => inserted.has(e.id));
      if (fresh.length > 0) await this.analytics.recordBatch(tx, orgId, fresh);
      return fresh.length;
    };
  }
}

/**
 * A rollup sum past what the service keeps exactly (a user-day's credit units past 2^63 − 1, or
 * its tokens past 2^53 − 1; see migration 0014) refuses the whole batch: the transaction rolled
 * back, so nothing of it is stored, and the first model request names the field.
 */
function sumsOutOfRange(e: unknown, events: readonly TelemetryEvent[]): Error | undefined {
  if (!(e instanceof DbError) || (e.code !== '22003' && !(e.code === '23514' && e.constraint?.startsWith('analytics_')))) return undefined;
  const i = Math.max(0, events.findIndex((x) => x.type === 'model_request'));
  return errors.invalid([
    { path: `/events/${i}/inputTokens`, message: "would take this user's token or credit sums for the day past what the service keeps exactly; the batch is refused and nothing of it is stored" },
  ]);
}
