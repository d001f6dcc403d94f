import type { Queryable, Transaction } from '../core/db/db.js';
import { ID_PREFIX } from './mappings/native.js';
import { StreamSet, type StreamState } from './stream-set.js';

// Set keys travel as base64url text (32 characters, 24 bytes each), decoded in the database; a
// set's states as base64 (encode() breaks its output into lines, which Buffer.from skips).
const fromKey = (column: string) => `decode(translate(${column}, '-_', '+/'), 'base64')`;

// A set seen for the first time gets an empty row, which the lock below then takes: sets are
// created and locked in the order of their keys, so concurrent exports wait on each other in
// one order, and one that finds a set another is creating waits for it and then reads its
// states. (One statement could not do both: its snapshot would miss a row that a concurrent
// export commits while the insert waits for it.)
const CREATE_SQL = `
  INSERT INTO otlp_stream_sets (org_id, set_key, states)
  SELECT $1::uuid, ${fromKey('k')}, ''::bytea FROM unnest($2::text[]) AS k
  ORDER BY 2
  ON CONFLICT DO NOTHING`;

const LOCK_SQL = `
  SELECT translate(encode(set_key, 'base64'), E'+/\\n', '-_') AS k, encode(states, 'base64') AS s FROM otlp_stream_sets
  WHERE org_id = $1 AND set_key IN (SELECT ${fromKey('x')} FROM unnest($2::text[]) AS x)
  ORDER BY set_key FOR UPDATE`;

const SAVE_SQL = `
  UPDATE otlp_stream_sets AS s SET states = decode(u.v, 'base64')
  FROM unnest($2::text[], $3::text[]) AS u(k, v)
  WHERE s.org_id = $1 AND s.set_key = ${fromKey('u.k')}`;

export const streamsStore = {
  /**
   * The states of these sets' streams (keys: 32 base64url characters, distinct), locked until
   * the transaction ends; a set seen for the first time is created empty. Two exports of a new
   * stream at once take turns instead of both counting its whole value.
   */
  async lock(db: Queryable, orgId: string, setKeys: readonly string[]): Promise<Map<string, StreamSet>> {
    if (setKeys.length === 0) return new Map();
    const sorted = [...setKeys].sort();
    const [, rows] = await Promise.all([db.query(CREATE_SQL, [orgId, sorted]), db.query<{ k: string; s: string }>(LOCK_SQL, [orgId, sorted])]);
    // The insert waited for any export creating the same rows; they are all there now.
    if (rows.length !== sorted.length) throw new Error(`otlp_stream_sets: ${sorted.length - rows.length} set(s) neither created nor found`);
    return new Map(rows.map((r) => [r.k, new StreamSet(Buffer.from(r.s, 'base64'))]));
  },

  /** Writes back the sets whose states changed, as a write (`db.write`, in the caller's transaction: db.ts): it goes out with what follows it. */
  save(db: Transaction, orgId: string, sets: ReadonlyMap<string, StreamSet>): void {
    const changed = [...sets].filter(([, set]) => set.changed);
    if (changed.length === 0) return;
    db.write(SAVE_SQL, [orgId, changed.map(([k]) => k), changed.map(([, set]) => set.packed().toString('base64'))]);
  },

  /** Whether the organization has any stream state from before migration 0055 (none, mostly: then `before` has nothing to find). */
  async anyBefore(q: Queryable, orgId: string): Promise<boolean> {
    const rows = await q.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM otlp_streams WHERE org_id = $1) AS any`, [orgId]);
    return rows[0]?.any === true;
  },

  /**
   * The states that streams not yet in their sets had before migration 0055, by key: kept one row
   * each in otlp_streams under their ids (`otlp:` and the key). Their sets are locked, so no
   * other export moves them meanwhile.
   */
  async before(db: Queryable, orgId: string, keys: readonly string[]): Promise<Map<string, StreamState>> {
    if (keys.length === 0) return new Map();
    const rows = await db.query<{ stream_key: string; start_ns: string; last_ns: string; last_value: number }>(
      `SELECT stream_key, start_ns::text AS start_ns, last_ns::text AS last_ns, last_value
       FROM otlp_streams
       WHERE org_id = $1 AND stream_key = ANY($2::text[])`,
      [orgId, keys.map((k) => ID_PREFIX + k)],
    );
    return new Map(
      rows.map((r) => [r.stream_key.slice(ID_PREFIX.length), { startNs: BigInt(r.start_ns), lastNs: BigInt(r.last_ns), lastValue: Number(r.last_value) }]),
    );
  },
};
