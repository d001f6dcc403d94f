import type { Queryable } from '../core/db/db.js';

/** The length of a key in an `otlp:` id: 32 base64url characters, 24 bytes (mappings/native.ts). */
export const KEY_CHARS = 32;

// The keys go as one text of 32-character keys, cut and decoded by the database: one parameter
// whatever their number, and nothing per key for the driver to encode.
const INSERT_NEW_SQL = `
  WITH ins AS (
    INSERT INTO otlp_seen (org_id, key)
    SELECT $1::uuid, decode(translate(substr($2::text, i * ${KEY_CHARS} + 1, ${KEY_CHARS}), '-_', '+/'), 'base64')
    FROM generate_series(0, $3::int - 1) AS i
    ORDER BY i
    ON CONFLICT DO NOTHING
    RETURNING key)
  SELECT count(*)::int AS stored,
    CASE WHEN count(*) < $3::int THEN coalesce(array_agg(translate(encode(key, 'base64'), '+/', '-_')), ARRAY[]::text[]) END AS keys
  FROM ins`;

export const seenStore = {
  /**
   * Records these keys (32 base64url characters each, sorted, distinct) as seen by the
   * organization. Keys already seen are skipped by the primary key, also when another export
   * records them concurrently (sorted keys: such exports wait on each other in one order).
   * Returns null when every key was new (the usual case, which then costs no list of keys),
   * otherwise the keys that are new now.
   */
  async insertNew(tx: Queryable, orgId: string, keys: readonly string[]): Promise<Set<string> | null> {
    if (keys.length === 0) return null;
    const rows = await tx.query<{ stored: number; keys: string[] | null }>(INSERT_NEW_SQL, [orgId, keys.join(''), keys.length]);
    const fresh = rows[0]!.keys;
    return fresh === null ? null : new Set(fresh);
  },
};
