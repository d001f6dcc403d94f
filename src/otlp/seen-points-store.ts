import type { Queryable } from '../core/db/db.js';
import { KEY_CHARS, seenStore } from './seen-store.js';

/**
 * At most this many data points in one collection (one metric, resource, scope, start and time):
 * an OpenTelemetry SDK keeps at most 2,000 attribute sets per metric by default. A collection's
 * row holds its points' keys, and each export adding to it rewrites it: the bound keeps that
 * row at most 480 KB.
 */
export const MAX_POINTS_PER_COLLECTION = 20_000;

// Keys travel as base64url text (32 characters, 24 bytes each), decoded in the database; a
// collection's keys as one text of its keys one after the other (whole base64 quanta).
const fromText = (column: string) => `decode(translate(${column}, '-_', '+/'), 'base64')`;
// encode() breaks its base64 into lines: the newlines are dropped with the translation.
const toText = (column: string) => `translate(encode(${column}, 'base64'), E'+/\\n', '-_')`;

const INSERT_NEW_SQL = `
  INSERT INTO otlp_seen_points (org_id, collection, keys)
  SELECT $1::uuid, ${fromText('u.c')}, ${fromText('u.k')}
  FROM unnest($2::text[], $3::text[]) AS u(c, k)
  ORDER BY 2
  ON CONFLICT DO NOTHING
  RETURNING ${toText('collection')} AS c`;

const LOCK_SQL = `
  SELECT ${toText('collection')} AS c, ${toText('keys')} AS k FROM otlp_seen_points
  WHERE org_id = $1 AND collection IN (SELECT ${fromText('x')} FROM unnest($2::text[]) AS x)
  ORDER BY collection FOR UPDATE`;

const APPEND_SQL = `
  UPDATE otlp_seen_points AS p SET keys = p.keys || ${fromText('u.k')}
  FROM unnest($2::text[], $3::text[]) AS u(c, k)
  WHERE p.org_id = $1 AND p.collection = ${fromText('u.c')}`;

const keysOfText = (text: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += KEY_CHARS) out.push(text.slice(i, i + KEY_CHARS));
  return out;
};

export const seenPointsStore = {
  /**
   * Records the keys of delta data points as seen, by collection (its key → its points' keys,
   * all 32 base64url characters, distinct). A collection seen for the first time gets its row
   * with all its keys; one seen before is locked, and the keys it does not hold yet are added.
   * Rows are created and locked in the order of their keys, so concurrent exports wait on each
   * other in one order; an export adding to a collection another one is creating waits for it
   * and then finds its keys. Returns the keys that are new now, and the keys that would take a
   * collection past MAX_POINTS_PER_COLLECTION (not recorded).
   */
  async insertNew(tx: Queryable, orgId: string, collections: ReadonlyMap<string, readonly string[]>): Promise<{ fresh: Set<string>; overflow: string[] }> {
    const fresh = new Set<string>();
    const overflow: string[] = [];
    if (collections.size === 0) return { fresh, overflow };
    const capped = new Map<string, readonly string[]>();
    for (const [c, keys] of collections) {
      capped.set(c, keys.length > MAX_POINTS_PER_COLLECTION ? keys.slice(0, MAX_POINTS_PER_COLLECTION) : keys);
      overflow.push(...keys.slice(MAX_POINTS_PER_COLLECTION));
    }
    const names = [...capped.keys()];
    const created = await tx.query<{ c: string }>(INSERT_NEW_SQL, [orgId, names, names.map((c) => (capped.get(c) as string[]).join(''))]);
    for (const { c } of created) {
      for (const k of capped.get(c) ?? []) fresh.add(k);
      capped.delete(c);
    }
    if (capped.size === 0) return { fresh, overflow };

    const rows = await tx.query<{ c: string; k: string }>(LOCK_SQL, [orgId, [...capped.keys()]]);
    // The insert waited for any export creating the same rows; they are all there now.
    if (rows.length !== capped.size) throw new Error(`otlp_seen_points: ${capped.size - rows.length} collection(s) neither created nor found`);
    const added: [collection: string, keys: string][] = [];
    for (const { c, k } of rows) {
      const held = new Set(keysOfText(k));
      const room = MAX_POINTS_PER_COLLECTION - held.size;
      const adding = (capped.get(c) ?? []).filter((key) => !held.has(key));
      for (const key of adding.slice(0, Math.max(0, room))) fresh.add(key);
      overflow.push(...adding.slice(Math.max(0, room)));
      if (room > 0 && adding.length > 0) added.push([c, adding.slice(0, room).join('')]);
    }
    if (added.length > 0) await tx.query(APPEND_SQL, [orgId, added.map(([c]) => c), added.map(([, k]) => k)]);
    return { fresh, overflow };
  },

  /**
   * Which of these newly recorded points were counted before migration 0052, through otlp_seen:
   * only in an organization that had keys there then, only points older than the time the
   * migration noted for it.
   */
  async seenBefore(tx: Queryable, orgId: string, points: readonly { key: string; ms: number }[]): Promise<Set<string>> {
    if (points.length === 0) return new Set();
    const rows = await tx.query<{ until_ms: string }>(`SELECT until_ms::text AS until_ms FROM otlp_seen_points_before WHERE org_id = $1`, [orgId]);
    if (rows.length === 0) return new Set();
    const until = Number(rows[0]!.until_ms);
    return seenStore.seen(tx, orgId, points.filter((p) => p.ms < until).map((p) => p.key));
  },
};
