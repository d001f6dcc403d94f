import type { Queryable } from '../core/db/db.js';
import type { TelemetryEvent } from '../events/event.js';

const INSERT_NEW_SQL = `
  WITH ins AS (
    INSERT INTO telemetry_events (org_id, event_id, user_id, type, occurred_at, session_id, client, attrs)
    SELECT $1::uuid, e.id, e."userId", e.type, timestamptz 'epoch' + e.ms * interval '1 millisecond', e."sessionId", e.client, e.attrs
    FROM jsonb_to_recordset($2::text::jsonb) AS e(id text, "userId" uuid, type text, ms bigint, "sessionId" text, client text, attrs jsonb)
    ON CONFLICT (org_id, event_id) DO NOTHING
    RETURNING event_id)
  SELECT count(*)::int AS stored, CASE WHEN count(*) < $3 THEN coalesce(array_agg(event_id), ARRAY[]::text[]) END AS ids FROM ins`;

export const telemetryStore = {
  /**
   * The statement that stores the events whose id is new for the organization. Ids already stored
   * are skipped by the primary key, also when another batch stores them concurrently. It returns
   * null when every event was new (the usual case, which then costs no list of ids), otherwise
   * the ids stored now.
   */
  insertNew(orgId: string, events: readonly TelemetryEvent[]): (db: Queryable) => Promise<Set<string> | null> {
    // One JSON document instead of one array per column: V8 writes it natively, and it is the
    // cheapest form for both engines to receive (measured against unnest over eight arrays).
    // It is built here, before the caller's transaction begins, so the database does not wait
    // inside the transaction for a thousand events to be serialized.
    // The record's columns are the event's own field names, so the events go out as they are.
    const params = [orgId, JSON.stringify(events), events.length];
    return async (db) => {
      const rows = await db.query<{ stored: number; ids: string[] | null }>(INSERT_NEW_SQL, params);
      const { ids } = rows[0]!;
      return ids === null ? null : new Set(ids);
    };
  },
};
