import type { Queryable } from '../core/db/db.js';

export interface ClientExport {
  userId: string;
  client: string;
}

/** A row newer than this is not rewritten: `--status` needs the minute, not every export. */
export const CONNECTION_REFRESH_MS = 60_000;

export const connectionsStore = {
  /** Notes that these users' records arrived from these clients now: one statement per export, rows in key order (no deadlock between concurrent exports). */
  async touch(db: Queryable, orgId: string, rows: readonly ClientExport[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    const sorted = [...rows].sort((a, b) => (a.userId === b.userId ? a.client.localeCompare(b.client) : a.userId < b.userId ? -1 : 1));
    await db.query(
      `INSERT INTO otlp_connections (user_id, client, org_id, last_export_at)
       SELECT u, c, $1::uuid, $4::timestamptz FROM unnest($2::uuid[], $3::text[]) AS r(u, c)
       ON CONFLICT (user_id, client) DO UPDATE SET last_export_at = EXCLUDED.last_export_at
       WHERE otlp_connections.last_export_at < EXCLUDED.last_export_at - make_interval(secs => ${CONNECTION_REFRESH_MS / 1000})`,
      [orgId, sorted.map((r) => r.userId), sorted.map((r) => r.client), at],
    );
  },

  async ofUser(db: Queryable, userId: string): Promise<{ client: string; last_export_at: Date }[]> {
    return db.query(`SELECT client, last_export_at FROM otlp_connections WHERE user_id = $1 ORDER BY client`, [userId]);
  },
};
