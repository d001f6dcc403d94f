import type { Queryable } from '../core/db/db.js';
import { KEY_CHARS, seenStore } from './seen-store.js';

/**
 * At most this many records in one group: an OpenTelemetry SDK keeps at most 2,000 attribute
 * sets per metric by default, and a session logs far fewer events in a minute. A group's row
 * holds its records' keys, and each export adding to it rewrites it: the bound keeps that row
 * at most 480 KB.
 */
export const MAX_RECORDS_PER_GROUP = 20_000;

// Keys travel as base64url text (32 characters, 24 bytes each), decoded in the database; a
// group's keys as one text of its keys one after the other (whole base64 quanta).
const fromText = (column: string) => `decode(translate(${column}, '-_', '+/'), 'base64')`;
// encode() breaks its base64 into lines: the newlines are dropped with the translation.
const toText = (column: string) => `translate(encode(${column}, 'base64'), E'+/\\n', '-_')`;

const INSERT_NEW_SQL = `
  INSERT INTO otlp_seen_groups (org_id, grp, keys)
  SELECT $1::uuid, ${fromText('u.g')}, ${fromText('u.k')}
  FROM unnest($2::text[], $3::text[]) AS u(g, k)
  ORDER BY 2
  ON CONFLICT DO NOTHING
  RETURNING ${toText('grp')} AS g`;

const LOCK_SQL = `
  SELECT ${toText('grp')} AS g, ${toText('keys')} AS k FROM otlp_seen_groups
  WHERE org_id = $1 AND grp IN (SELECT ${fromText('x')} FROM unnest($2::text[]) AS x)
  ORDER BY grp FOR UPDATE`;

const APPEND_SQL = `
  UPDATE otlp_seen_groups AS s SET keys = s.keys || ${fromText('u.k')}
  FROM unnest($2::text[], $3::text[]) AS u(g, k)
  WHERE s.org_id = $1 AND s.grp = ${fromText('u.g')}`;

const keysOfText = (text: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += KEY_CHARS) out.push(text.slice(i, i + KEY_CHARS));
  return out;
};

export const seenGroupsStore = {
  /**
   * Records the keys of grouped records as seen (group key → its records' keys, all 32
   * base64url characters, distinct; groups in the order of their keys). A group seen for the
   * first time gets its row with all its keys; one seen before is locked, and the keys it does
   * not hold yet are added. Rows are created and locked in the order of their keys, so
   * concurrent exports wait on each other in one order; an export adding to a group another one
   * is creating waits for it and then finds its keys. Returns the keys that are new now, and the
   * keys that would take a group past MAX_RECORDS_PER_GROUP (not recorded).
   */
  async insertNew(db: Queryable, orgId: string, groups: ReadonlyMap<string, readonly string[]>): Promise<{ fresh: Set<string>; overflow: string[] }> {
    const fresh = new Set<string>();
    const overflow: string[] = [];
    if (groups.size === 0) return { fresh, overflow };
    const capped = new Map<string, readonly string[]>();
    for (const [g, keys] of groups) {
      capped.set(g, keys.length > MAX_RECORDS_PER_GROUP ? keys.slice(0, MAX_RECORDS_PER_GROUP) : keys);
      overflow.push(...keys.slice(MAX_RECORDS_PER_GROUP));
    }
    const names = [...capped.keys()];
    const created = await db.query<{ g: string }>(INSERT_NEW_SQL, [orgId, names, names.map((g) => (capped.get(g) as string[]).join(''))]);
    for (const { g } of created) {
      for (const k of capped.get(g) ?? []) fresh.add(k);
      capped.delete(g);
    }
    if (capped.size === 0) return { fresh, overflow };

    const rows = await db.query<{ g: string; k: string }>(LOCK_SQL, [orgId, [...capped.keys()]]);
    // The insert waited for any export creating the same rows; they are all there now.
    if (rows.length !== capped.size) throw new Error(`otlp_seen_groups: ${capped.size - rows.length} group(s) neither created nor found`);
    const added: [group: string, keys: string][] = [];
    for (const { g, k } of rows) {
      const held = new Set(keysOfText(k));
      const room = Math.max(0, MAX_RECORDS_PER_GROUP - held.size);
      const adding = (capped.get(g) ?? []).filter((key) => !held.has(key));
      for (const key of adding.slice(0, room)) fresh.add(key);
      overflow.push(...adding.slice(room));
      if (room > 0 && adding.length > 0) added.push([g, adding.slice(0, room).join('')]);
    }
    if (added.length > 0) await db.query(APPEND_SQL, [orgId, added.map(([g]) => g), added.map(([, k]) => k)]);
    return { fresh, overflow };
  },

  /**
   * The time before which grouped records of the organization may have been counted through
   * otlp_seen (migration 0052 noted it for each organization that had keys there), or null.
   * Only that migration writes it, so it can be kept for the life of the process.
   */
  async upgradeCutoff(q: Queryable, orgId: string): Promise<number | null> {
    const rows = await q.query<{ until_ms: string }>(`SELECT until_ms::text AS until_ms FROM otlp_seen_groups_before WHERE org_id = $1`, [orgId]);
    return rows.length === 0 ? null : Number(rows[0]!.until_ms);
  },

  /** Which of these newly recorded grouped records older than the organization's upgradeCutoff were counted then, through otlp_seen. */
  async seenBefore(db: Queryable, orgId: string, records: readonly { key: string; ms: number }[], cutoff: number): Promise<Set<string>> {
    return seenStore.seen(
      db,
      orgId,
      records.filter((r) => r.ms < cutoff).map((r) => r.key),
    );
  },
};
