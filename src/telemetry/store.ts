import type { Queryable } from '../core/db/db.js';
import type { TelemetryEvent } from './validate-events.js';

export const telemetryStore = {
  /** Which of these ids name users of the organization (service accounts cannot be named). */
  async existingUsers(db: Queryable, orgId: string, ids: string[]): Promise<Set<string>> {
    const rows = await db.query<{ id: string }>(`SELECT id FROM principals WHERE org_id = $1 AND kind = 'user' AND id = ANY($2::uuid[])`, [orgId, ids]);
    return new Set(rows.map((r) => r.id));
  },

  /**
   * Stores the events whose id is new for the organization and returns those ids. Ids already
   * stored are skipped by the primary key, also when another batch stores them concurrently.
   */
  async insertNew(tx: Queryable, orgId: string, events: readonly TelemetryEvent[]): Promise<Set<string>> {
    const rows = await tx.query<{ event_id: string }>(
      `INSERT INTO telemetry_events (org_id, event_id, user_id, type, occurred_at, session_id, client, attrs)
       SELECT $1::uuid, e.id, e.user_id, e.type, e.at, e.session_id, e.client, e.attrs::jsonb
       FROM unnest($2::text[], $3::uuid[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
            AS e(id, user_id, type, at, session_id, client, attrs)
       ON CONFLICT (org_id, event_id) DO NOTHING
       RETURNING event_id`,
      [
        orgId,
        events.map((e) => e.id),
        events.map((e) => e.userId),
        events.map((e) => e.type),
        events.map((e) => new Date(e.ms).toISOString()),
        events.map((e) => e.sessionId),
        events.map((e) => e.client),
        events.map((e) => JSON.stringify(e.attrs)),
      ],
    );
    return new Set(rows.map((r) => r.event_id));
  },
};
