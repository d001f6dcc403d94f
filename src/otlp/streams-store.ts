import type { Queryable } from '../core/db/db.js';

export interface StreamState {
  startNs: bigint;
  /** 0 until the stream's first point is counted. */
  lastNs: bigint;
  lastValue: number;
}

/** A stream's latest point in an export: where the stream moves unless its stored state is later. */
export interface StreamPoint {
  key: string;
  startNs: bigint;
  timeNs: bigint;
  value: number;
}

// A stream moves to the export's latest point when that point is later than its last one, or
// when no point of it was counted yet (last_ns 0); a new stream's row starts there, its previous
// state empty. Rows are upserted in the order of their keys, so concurrent exports of the same
// streams wait on each other in one order; one that finds a stream another is creating waits for
// it and then reads its state.
const ADVANCE_SQL = `
  INSERT INTO otlp_streams AS s (org_id, stream_key, start_ns, last_ns, last_value, prev_start_ns, prev_last_ns, prev_last_value)
  SELECT $1::uuid, p.key, p.start, p.last, p.value, 0, 0, 0
  FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::float8[]) AS p(key, start, last, value)
  ORDER BY p.key
  ON CONFLICT (org_id, stream_key) DO UPDATE SET
    prev_start_ns = s.start_ns, prev_last_ns = s.last_ns, prev_last_value = s.last_value,
    start_ns = CASE WHEN ${later('s')} THEN EXCLUDED.start_ns ELSE s.start_ns END,
    last_ns = CASE WHEN ${later('s')} THEN EXCLUDED.last_ns ELSE s.last_ns END,
    last_value = CASE WHEN ${later('s')} THEN EXCLUDED.last_value ELSE s.last_value END
  RETURNING stream_key, prev_start_ns::text AS start_ns, prev_last_ns::text AS last_ns, prev_last_value AS last_value`;

function later(row: string): string {
  return `(EXCLUDED.last_ns > ${row}.last_ns OR ${row}.last_ns = 0)`;
}

/** f, remembering its result for each argument (for one call's few distinct values). */
function memo<A, R>(f: (a: A) => R): (a: A) => R {
  const results = new Map<A, R>();
  return (a) => {
    let r = results.get(a);
    if (r === undefined) results.set(a, (r = f(a)));
    return r;
  };
}

export const streamsStore = {
  /**
   * Moves each stream to its latest point of the export (one per stream, keys distinct) and
   * returns the states they had before, locked until the transaction ends; a stream seen for the
   * first time has an empty state (lastNs 0). Two exports of a new stream at once take turns
   * instead of both counting its whole value. The caller works out each point's delta from the
   * state returned (deltaOf in service.ts), which ends where this leaves the stream: at its
   * latest point when that is later than the stored last one.
   */
  async advance(tx: Queryable, orgId: string, latest: readonly StreamPoint[]): Promise<Map<string, StreamState>> {
    if (latest.length === 0) return new Map();
    // An export's streams mostly share their start and time: each distinct one is converted once.
    const text = memo((ns: bigint) => ns.toString());
    const rows = await tx.query<{ stream_key: string; start_ns: string; last_ns: string; last_value: number }>(ADVANCE_SQL, [
      orgId,
      latest.map((p) => p.key),
      latest.map((p) => text(p.startNs)),
      latest.map((p) => text(p.timeNs)),
      latest.map((p) => p.value),
    ]);
    const ns = memo((t: string) => BigInt(t));
    return new Map(rows.map((r) => [r.stream_key, { startNs: ns(r.start_ns), lastNs: ns(r.last_ns), lastValue: Number(r.last_value) }]));
  },
};
