import type { Queryable } from '../core/db/db.js';

export interface StreamState {
  startNs: bigint;
  /** 0 until the stream's first point is counted. */
  lastNs: bigint;
  lastValue: number;
}

export const streamsStore = {
  /**
   * The states of these streams, locked until the transaction ends. A stream seen for the first
   * time gets its row first, so two exports of a new stream at once take turns instead of both
   * counting its whole value.
   */
  async lock(tx: Queryable, orgId: string, keys: string[]): Promise<Map<string, StreamState>> {
    if (keys.length === 0) return new Map();
    const sorted = [...keys].sort();
    await tx.query(
      `INSERT INTO otlp_streams (org_id, stream_key, start_ns, last_ns, last_value)
       SELECT $1, k, 0, 0, 0 FROM unnest($2::text[]) AS k ON CONFLICT DO NOTHING`,
      [orgId, sorted],
    );
    const rows = await tx.query<{ stream_key: string; start_ns: string; last_ns: string; last_value: number }>(
      `SELECT stream_key, start_ns::text AS start_ns, last_ns::text AS last_ns, last_value FROM otlp_streams
       WHERE org_id = $1 AND stream_key = ANY($2::text[]) ORDER BY stream_key FOR UPDATE`,
      [orgId, sorted],
    );
    return new Map(rows.map((r) => [r.stream_key, { startNs: BigInt(r.start_ns), lastNs: BigInt(r.last_ns), lastValue: Number(r.last_value) }]));
  },

  /** Stores these streams' new states (their rows locked by `lock`), as arrays: parsing them as JSON cost twice the update. */
  async save(tx: Queryable, orgId: string, states: Map<string, StreamState>): Promise<void> {
    if (states.size === 0) return;
    const keys: string[] = [];
    const starts: string[] = [];
    const lasts: string[] = [];
    const values: number[] = [];
    for (const [key, s] of states) {
      keys.push(key);
      starts.push(s.startNs.toString());
      lasts.push(s.lastNs.toString());
      values.push(s.lastValue);
    }
    await tx.query(
      `UPDATE otlp_streams AS s SET start_ns = r.start, last_ns = r.last, last_value = r.value
       FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::float8[]) AS r(key, start, last, value)
       WHERE s.org_id = $1 AND s.stream_key = r.key`,
      [orgId, keys, starts, lasts, values],
    );
  },
};
