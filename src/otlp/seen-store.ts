import type { Queryable } from '../core/db/db.js';

/** The length of a key in an `otlp:` id: 32 base64url characters, 24 bytes (mappings/native.ts). */
export const KEY_CHARS = 32;

/** The bytes of a key: 32 base64url characters decode to 24. */
const KEY_BYTES = 24;

// The keys go as one text of 32-character keys, decoded by the database at once (32 characters
// are whole base64 quanta, so the concatenation decodes to the keys' bytes one after the other)
// and cut into keys as bytea, whose substring is O(1): one parameter whatever their number, and
// nothing per key for the driver to encode. (substr on the text itself scans from its start in
// a multibyte encoding, quadratic in the keys: it made exports slower than event rows.) The new
// keys are listed only when some were seen before: the usual export costs no list (the scalar
// subquery runs only in that case; an aggregate beside count(*) would run every time).
const INSERT_NEW_SQL = `
  WITH k AS (SELECT decode(translate($2::text, '-_', '+/'), 'base64') AS b),
  ins AS (
    INSERT INTO otlp_seen (org_id, key)
    SELECT $1::uuid, substring(k.b FROM i * ${KEY_BYTES} + 1 FOR ${KEY_BYTES})
    FROM k, generate_series(0, $3::int - 1) AS i
    ORDER BY i
    ON CONFLICT DO NOTHING
    RETURNING key),
  n AS (SELECT count(*)::int AS stored FROM ins)
  SELECT n.stored,
    CASE WHEN n.stored < $3::int THEN (SELECT coalesce(array_agg(translate(encode(key, 'base64'), '+/', '-_')), ARRAY[]::text[]) FROM ins) END AS keys
  FROM n`;

export const seenStore = {
  /**
   * Records these keys (32 base64url characters each, sorted, distinct) as seen by the
   * organization. Keys already seen are skipped by the primary key, also when another export
   * records them concurrently (sorted keys: such exports wait on each other in one order).
   * Returns null when every key was new (the usual case, which then costs no list of keys),
   * otherwise the keys that are new now.
   */
  async insertNew(db: Queryable, orgId: string, keys: readonly string[]): Promise<Set<string> | null> {
    if (keys.length === 0) return null;
    const rows = await db.query<{ stored: number; keys: string[] | null }>(INSERT_NEW_SQL, [orgId, keys.join(''), keys.length]);
    const fresh = rows[0]!.keys;
    return fresh === null ? null : new Set(fresh);
  },

  /**
   * Which of these keys (32 base64url characters each) the organization has seen. Grouped
   * records counted before migration 0052 are looked up this way (seen-groups-store.ts).
   */
  async seen(db: Queryable, orgId: string, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db.query<{ k: string }>(
      `SELECT translate(encode(key, 'base64'), '+/', '-_') AS k FROM otlp_seen
       WHERE org_id = $1 AND key IN (SELECT decode(translate(x, '-_', '+/'), 'base64') FROM unnest($2::text[]) AS x)`,
      [orgId, keys],
    );
    return new Set(rows.map((r) => r.k));
  },
};
