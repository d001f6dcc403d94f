import type { Queryable, Transaction } from '../core/db/db.js';
import type { SealedColumn } from '../core/secrets/reseal.js';

export interface EndpointRow {
  id: string;
  org_id: string;
  url: string;
  description: string;
  event_types: string[];
  format: 'standard' | 'slack';
  secret: string;
  created_by: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A claimed delivery: what one attempt needs. */
export interface DueDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  org_id: string;
  attempts: number;
  created_at: Date;
  lease_owner: string;
  type: string;
  body: string;
  url: string;
  format: 'standard' | 'slack';
  secret: string;
}

/** The outcome of one attempt, to be recorded (`finish`). */
export interface Outcome {
  id: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** When the attempt ended. */
  at: Date;
  durationMs: number;
  /** When to try again, or null: not again (it succeeded, or its retry window is over). */
  retryAt: Date | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

/** The endpoints' signing secrets: sealed where they are stored when SECRETS_KEY is set. */
export const ENDPOINT_SECRET: SealedColumn = { table: 'webhook_endpoints', id: 'id', column: 'secret' };

const ENDPOINT_LOCKS = 727140080;
const endpointColumns = `id, org_id, url, description, event_types, format, secret, created_by, enabled, disabled_reason, failing_since, created_at, updated_at`;
// Times travel in arrays as ISO text: the drivers agree on that, not on arrays of dates.
const iso = (dates: readonly (Date | null)[]) => dates.map((d) => d?.toISOString() ?? null);
const after = (now: string, ms: string) => `(${now}::timestamptz + ${ms}::int * interval '1 millisecond')`;

/**
 * SQL of webhook endpoints, events and the delivery queue. A delivery is a job row: claimed with
 * FOR UPDATE SKIP LOCKED and a lease (as computers' steps are, computers/steps-store.ts), so any
 * number of processes share the queue and a delivery whose process died is claimed again when its
 * lease expires. Every time written or compared is the caller's clock.
 */
export const webhooksStore = {
  async insertEndpoint(db: Queryable, e: Omit<EndpointRow, 'enabled' | 'disabled_reason' | 'failing_since' | 'updated_at'>): Promise<void> {
    await db.query(
      `INSERT INTO webhook_endpoints (id, org_id, url, description, event_types, format, secret, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $9)`,
      [e.id, e.org_id, e.url, e.description, e.event_types, e.format, e.secret, e.created_by, e.created_at],
    );
  },

  /**
   * The organization's endpoint count, under a lock on its endpoints held to the end of the
   * transaction: concurrent creations are counted one after another, so none passes the cap.
   */
  async countLocked(db: Queryable, orgId: string): Promise<number> {
    await db.query(`SELECT pg_advisory_xact_lock(${ENDPOINT_LOCKS}, hashtext($1::text))`, [orgId]);
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE org_id = $1`, [orgId]);
    return row!.n;
  },

  list(db: Queryable, orgId: string) {
    return db.query<EndpointRow>(`SELECT ${endpointColumns} FROM webhook_endpoints WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  },

  async get(db: Queryable, orgId: string, id: string): Promise<EndpointRow | undefined> {
    const rows = await db.query<EndpointRow>(`SELECT ${endpointColumns} FROM webhook_endpoints WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return rows[0];
  },

  async update(
    db: Queryable,
    orgId: string,
    id: string,
    u: { url: string; description: string; event_types: string[]; format: string; enabled: boolean },
    now: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE webhook_endpoints SET url = $3, description = $4, event_types = $5::text[], format = $6, updated_at = $8,
         enabled = $7, disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
         failing_since = CASE WHEN $7 AND NOT enabled THEN NULL ELSE failing_since END
       WHERE org_id = $1 AND id = $2`,
      [orgId, id, u.url, u.description, u.event_types, u.format, u.enabled, now],
    );
  },

  async remove(db: Queryable, orgId: string, id: string): Promise<boolean> {
    return (await db.query(`DELETE FROM webhook_endpoints WHERE org_id = $1 AND id = $2 RETURNING id`, [orgId, id])).length > 0;
  },

  /**
   * The event and a pending delivery to each enabled endpoint of the organization that takes its
   * type, in one statement; nothing at all when no endpoint takes it. A write: it goes out with the
   * caller's COMMIT rather than a round trip before it.
   */
  emit(db: Transaction, e: { id: string; orgId: string; type: string; body: string }, now: Date): void {
    db.write(
      `WITH targets AS (
         SELECT id FROM webhook_endpoints WHERE org_id = $2 AND enabled AND $3 = ANY(event_types)
       ),
       ev AS (
         INSERT INTO webhook_events (id, org_id, type, body, created_at)
         SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM targets)
         RETURNING id
       )
       INSERT INTO webhook_deliveries (id, org_id, event_id, endpoint_id, status, next_attempt_at, created_at)
       SELECT gen_random_uuid(), $2, ev.id, t.id, 'pending', $5, $5 FROM ev CROSS JOIN targets t`,
      [e.id, e.orgId, e.type, e.body, now],
    );
  },

  /**
   * Up to `limit` due deliveries, leased to `owner` until now + leaseMs, taken in turns: each
   * endpoint's oldest first, then each organization's, and at most `share` of an organization's
   * at once counting the `held` ones `owner` is sending already. The organization holding the
   * fewest goes first, so one organization's backlog or hanging endpoint never takes the places
   * the others' deliveries need. The endpoints with pending deliveries are found by a skip scan
   * of the pending index and each gives at most `share` candidates, so a long backlog costs a
   * claim no more than a short one.
   */
  claim(db: Queryable, owner: string, c: { limit: number; share: number; held: ReadonlyMap<string, number>; leaseMs: number; now: Date }) {
    const free = `d.status = 'pending' AND d.next_attempt_at <= $3 AND (d.lease_owner IS NULL OR d.lease_expires_at <= $3)`;
    return db.query<DueDelivery>(
      `WITH RECURSIVE endpoints AS (
         (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
         UNION ALL
         SELECT (SELECT d.endpoint_id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.endpoint_id > e.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
         FROM endpoints e WHERE e.endpoint_id IS NOT NULL
       ),
       candidates AS (
         SELECT c.*, row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS endpoint_turn
         FROM endpoints e CROSS JOIN LATERAL (
           SELECT d.id, d.org_id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
           WHERE d.endpoint_id = e.endpoint_id AND ${free}
           ORDER BY d.next_attempt_at, d.id LIMIT $5
         ) c
       ),
       held AS (SELECT * FROM unnest($6::uuid[], $7::int[]) AS h(org_id, n)),
       turns AS (
         SELECT c.id, c.next_attempt_at,
           coalesce(h.n, 0) + row_number() OVER (PARTITION BY c.org_id ORDER BY c.endpoint_turn, c.next_attempt_at, c.id) AS org_turn
         FROM candidates c LEFT JOIN held h USING (org_id)
       ),
       due AS (
         SELECT d.id FROM webhook_deliveries d
         WHERE d.id IN (SELECT id FROM turns WHERE org_turn <= $5 ORDER BY org_turn, next_attempt_at, id LIMIT $2) AND ${free}
         FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET lease_owner = $1, lease_expires_at = ${after('$3', '$4')}, attempts = d.attempts + 1
       FROM due, webhook_events e, webhook_endpoints w
       WHERE d.id = due.id AND e.id = d.event_id AND w.id = d.endpoint_id
       RETURNING d.id, d.event_id, d.endpoint_id, d.org_id, d.attempts, d.created_at, d.lease_owner, e.type, e.body, w.url, w.format, w.secret`,
      [owner, c.limit, c.now, c.leaseMs, c.share, [...c.held.keys()], [...c.held.values()]],
    );
  },

  /**
   * Records attempts and their outcomes, in one statement, for the deliveries `owner` still holds
   * the lease of: succeeded, pending again at `retryAt`, or failed (retryAt null). Each endpoint's
   * failing streak follows its outcomes in time order: a success ends it, the first failure after
   * that starts it. Returns the endpoints with a failure among the recorded outcomes, and the
   * last failure's error, for the caller to disable the ones failing for too long.
   */
  async finish(db: Queryable, owner: string, outcomes: readonly Outcome[]): Promise<{ endpoint_id: string; last_error: string | null }[]> {
    if (outcomes.length === 0) return [];
    const column = <K extends keyof Outcome>(k: K) => outcomes.map((o) => o[k]);
    const status = outcomes.map((o) => (o.ok ? 'succeeded' : o.retryAt ? 'pending' : 'failed'));
    return db.query(
      `WITH o AS (
         SELECT * FROM unnest($2::uuid[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::int[])
           AS o(id, status, code, error, at, retry_at, duration_ms)
       ),
       done AS (
         UPDATE webhook_deliveries d SET status = o.status, lease_owner = NULL, lease_expires_at = NULL, last_status_code = o.code,
           last_error = o.error, last_attempt_at = o.at, next_attempt_at = coalesce(o.retry_at, d.next_attempt_at)
         FROM o WHERE d.id = o.id AND d.lease_owner = $1
         RETURNING d.id, d.endpoint_id, o.status, o.error, o.at
       ),
       attempts AS (
         INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms)
         SELECT o.id, o.at, o.code, o.error, o.duration_ms FROM o JOIN done USING (id)
       ),
       last_success AS (
         SELECT endpoint_id, max(at) FILTER (WHERE status = 'succeeded') AS at FROM done GROUP BY endpoint_id
       ),
       streak AS (
         SELECT d.endpoint_id, s.at IS NOT NULL AS succeeded,
           min(d.at) FILTER (WHERE d.status <> 'succeeded' AND (s.at IS NULL OR d.at > s.at)) AS failing_since,
           (array_agg(d.error ORDER BY d.at DESC) FILTER (WHERE d.status <> 'succeeded'))[1] AS last_error,
           bool_or(d.status <> 'succeeded') AS failed
         FROM done d JOIN last_success s USING (endpoint_id) GROUP BY d.endpoint_id, s.at
       ),
       endpoints AS (
         UPDATE webhook_endpoints w
         SET failing_since = CASE WHEN s.succeeded THEN s.failing_since ELSE coalesce(w.failing_since, s.failing_since) END
         FROM streak s
         WHERE w.id = s.endpoint_id
           AND w.failing_since IS DISTINCT FROM (CASE WHEN s.succeeded THEN s.failing_since ELSE coalesce(w.failing_since, s.failing_since) END)
       )
       SELECT endpoint_id, last_error FROM streak WHERE failed`,
      [owner, column('id'), status, column('statusCode'), column('error'), iso(column('at')), iso(column('retryAt')), column('durationMs')],
    );
  },

  /** Disables the endpoint if it has failed for `ms` or longer; returns it when it did so now. */
  async disableIfFailingFor(db: Queryable, endpointId: string, ms: number, reason: string, now: Date) {
    const rows = await db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = $4
       WHERE id = $1 AND enabled AND failing_since IS NOT NULL AND failing_since <= $4::timestamptz - $2::int * interval '1 millisecond'
       RETURNING ${endpointColumns}`,
      [endpointId, ms, reason, now],
    );
    return rows[0];
  },

  deliveries(db: Queryable, endpointId: string, limit: number) {
    return db.query<DeliveryRow>(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error, d.last_attempt_at, d.created_at
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      [endpointId, limit],
    );
  },

  /** "Send again": the delivery pending at once, its attempts counting anew; false if it is not the endpoint's. */
  async resend(db: Queryable, endpointId: string, deliveryId: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, attempts = 0, created_at = $3, lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $2 AND endpoint_id = $1 RETURNING id`,
      [endpointId, deliveryId, now],
    );
    return rows.length > 0;
  },

  /**
   * Deletes up to `batch` finished deliveries last tried before their cutoff (their attempts go
   * with them) and the events they were the last deliveries of; then events older than
   * `eventsBefore` that no delivery is left of (an endpoint's deletion takes its deliveries, not
   * their events), looking at no more than the `batch` oldest. Deliveries another process is
   * pruning are skipped, not waited for. Returns how many of each went.
   */
  async prune(
    db: Queryable,
    p: { succeededBefore: Date; failedBefore: Date; eventsBefore: Date; batch: number },
  ): Promise<{ deliveries: number; events: number }> {
    const [pruned] = await db.query<{ deliveries: number; events: number }>(
      `WITH gone AS (
         DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
           WHERE (status = 'succeeded' AND last_attempt_at < $1) OR (status = 'failed' AND last_attempt_at < $2)
           LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, event_id),
       events AS (
         DELETE FROM webhook_events e WHERE e.id IN (SELECT event_id FROM gone)
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.id NOT IN (SELECT id FROM gone))
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM gone) AS deliveries, (SELECT count(*)::int FROM events) AS events`,
      [p.succeededBefore, p.failedBefore, p.batch],
    );
    const [orphans] = await db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM (SELECT id FROM webhook_events WHERE created_at < $1 ORDER BY created_at LIMIT $2) e
           WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [p.eventsBefore, p.batch],
    );
    return { deliveries: pruned!.deliveries, events: pruned!.events + orphans!.n };
  },
};
