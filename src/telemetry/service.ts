import { systemClock, type Clock } from '../core/clock.js';
import { DbError, type Db } from '../core/db/db.js';
import { errors, type ErrorItem } from '../core/http/errors.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { TelemetryEvent } from '../events/event.js';
import type { IngestBody, IngestResult, SessionRepositoryBody } from './schemas.js';
import { repoHint, REPO_RANK } from '../events/repository.js';
import { notARepoUrl } from '../core/net/repo-id.js';
import { telemetryStore as store } from './store.js';
import { validateEvents } from './validate-events.js';

export interface TelemetryDeps {
  db: Db;
  /** Checks that the users events name belong to the organization. */
  identity: IdentityService;
  /** Given the new events of each batch, in its transaction, for the rollups. */
  analytics: AnalyticsService;
  /** How far in the future an event's timestamp may be; by default the system's. */
  clock?: Clock;
}

export class TelemetryService {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly analytics: AnalyticsService;
  private readonly clock: Clock;

  constructor({ db, identity, analytics, clock = systemClock }: TelemetryDeps) {
    this.db = db;
    this.identity = identity;
    this.analytics = analytics;
    this.clock = clock;
  }

  /**
   * Stores a batch atomically: every event is checked first, and one bad event
   * rejects the batch. Events whose id the organization already has, or that repeat an id
   * earlier in the batch, are duplicates and change nothing.
   */
  async ingest(caller: Principal, batch: IngestBody['events']): Promise<IngestResult> {
    const checked = validateEvents(batch, caller.id, this.clock.now().getTime());
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
    const checked = validateEvents(batch, '', this.clock.now().getTime());
    if ('errors' in checked) throw errors.invalid(checked.errors);
    await this.checkUsersExist(
      orgId,
      batch.map((e, i) => ({ i, userId: e.userId as string })),
    );
    return this.store(orgId, checked.events);
  }

  /** The SessionStart record: the caller's session (or, named by an owner or manager, another user's) works in this repository (the best source there is). */
  async attributeSession(caller: Principal, sessionId: string, body: SessionRepositoryBody, email?: string): Promise<void> {
    const hint = repoHint(body.url, body.branch, body.commit, REPO_RANK.sessionStart);
    if (hint === undefined) throw errors.invalid([{ path: '/url', message: notARepoUrl(body.url) }]);
    const whose = await this.identity.subject(caller, { email }, "Only owners and managers record another user's session.");
    await this.analytics.repositories.attributeSession(caller.orgId, whose, sessionId, hint);
  }

  private async store(orgId: string, events: TelemetryEvent[]): Promise<IngestResult> {
    // A repeated id counts its first event.
    const seen = new Set<string>();
    const unique = events.filter((e) => !seen.has(e.id) && seen.add(e.id));
    let stored: number;
    try {
      stored = await this.storeEvents(orgId, unique);
    } catch (e) {
      throw sumsOutOfRange(e, events) ?? e;
    }
    return { accepted: stored, duplicates: events.length - stored };
  }

  /**
   * Stores the events whose id is new for the organization, with their rollups, in one
   * transaction. Of events sharing an id, the last is stored. Returns how many were new.
   */
  private async storeEvents(orgId: string, events: readonly TelemetryEvent[]): Promise<number> {
    const unique = [...new Map(events.map((e) => [e.id, e])).values()];
    if (unique.length === 0) return 0;
    // Sorted ids: concurrent batches sharing ids wait on each other in one order, never in a cycle.
    unique.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Built before the transaction opens, so that the database does not wait for it.
    const insertNew = store.insertNew(orgId, unique);
    return this.db.transaction(async () => {
      const inserted = await insertNew(this.db);
      const fresh = inserted === null ? unique : unique.filter((e) => inserted.has(e.id));
      if (fresh.length > 0) await this.analytics.recordBatch(orgId, fresh);
      return fresh.length;
    });
  }

  /** Only an owner or manager may name another user; the user must belong to the organization. */
  private async checkAttribution(caller: Principal, batch: IngestBody['events']): Promise<void> {
    const named = batch
      .map((e, i) => ({ i, userId: e.userId }))
      .filter((x): x is { i: number; userId: string } => x.userId !== undefined && x.userId.toLowerCase() !== caller.id);
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
}

/**
 * A rollup sum past what the service keeps exactly (a user-day's credit units past 2^63 − 1, or
 * its tokens past 2^53 − 1; see migration 0014) refuses the whole batch: the transaction rolled
 * back, so nothing of it is stored, and the first model request names the field.
 */
function sumsOutOfRange(e: unknown, events: readonly TelemetryEvent[]): Error | undefined {
  if (!(e instanceof DbError) || (e.code !== '22003' && !(e.code === '23514' && e.constraint?.startsWith('analytics_')))) return undefined;
  const i = Math.max(
    0,
    events.findIndex((x) => x.type === 'model_request'),
  );
  return errors.invalid([
    {
      path: `/events/${i}/inputTokens`,
      message: "would take this user's token or credit sums for the day past what the service keeps exactly; the batch is refused and nothing of it is stored",
    },
  ]);
}
