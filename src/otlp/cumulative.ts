import type { Transaction } from '../core/db/db.js';
import type { Owner } from './attribution.js';
import type { Rejections } from './collect.js';
import type { MetricPoint } from './records.js';
import { MAX_STREAMS_PER_SET, type StreamSet, type StreamState } from './stream-set.js';
import { streamsStore } from './streams-store.js';

/**
 * Cumulative streams: a cumulative point counts by its stream's state (otlp_stream_sets, one row
 * per set: a metric's streams of one resource and scope), the growth since the stream's last
 * point, and records no key.
 */

/** A cumulative point with its stream's key and its set's; its set's states and where its stream is in them, once read. */
export interface Cumulative {
  point: MetricPoint;
  owner: Owner;
  set: string;
  key: string;
  states: StreamSet | undefined;
  /** -1: not in its set when the set was read. */
  at: number;
}

/**
 * The delta a cumulative point adds: its whole value the first time, the growth since the last
 * point otherwise, and its whole value again after a reset (a later start time or a lower value).
 * Undefined for a point at or before the last one counted: a retry, or late.
 */
export function deltaOf(p: MetricPoint, state: StreamState | undefined): number | undefined {
  if (!state || state.lastNs === 0n) return p.value;
  if (p.timeNs <= state.lastNs) return undefined;
  const reset = p.startNs > state.startNs || p.value < state.lastValue;
  return reset ? p.value : p.value - state.lastValue;
}

const NO_STATES: ReadonlyMap<string, StreamState> = new Map();

/**
 * Moves each point's stream to the point, in the export's transaction: locks the points' sets,
 * finds each stream (in the states kept from before migration 0055 when it is new to its set and
 * the organization has any: `streamsBefore`), and hands `step` each point that grew its stream,
 * with the growth. The sets' new states go out as a write with COMMIT.
 */
export async function stepStreams(
  db: Transaction,
  orgId: string,
  cumulative: Cumulative[],
  streamsBefore: boolean,
  rejections: Rejections,
  step: (c: Cumulative, delta: number) => void,
): Promise<void> {
  const sets = await streamsStore.lock(db, orgId, [...new Set(cumulative.map((c) => c.set))]);
  const outside = new Set<string>();
  for (const c of cumulative) {
    c.states = sets.get(c.set) as StreamSet;
    c.at = c.states.find(c.key);
    if (c.at === -1) outside.add(c.key);
  }
  const before = outside.size > 0 && streamsBefore ? await streamsStore.before(db, orgId, [...outside]) : NO_STATES;
  // Point after point in time order, so that several points of one stream in one export count
  // step by step (an export's points mostly share their time: then they are in order already).
  if (!inTimeOrder(cumulative)) cumulative.sort((a, b) => (a.point.timeNs < b.point.timeNs ? -1 : a.point.timeNs > b.point.timeNs ? 1 : 0));
  for (const c of cumulative) {
    const set = c.states as StreamSet;
    // A stream new to its set may have joined it with an earlier point of this export.
    const at = c.at === -1 ? set.find(c.key) : c.at;
    const delta = deltaOf(c.point, at === -1 ? before.get(c.key) : set.stateAt(at));
    if (delta === undefined) continue;
    if (!set.set(c.key, at, c.point.startNs, c.point.timeNs, c.point.value)) {
      rejections.add(`more than ${MAX_STREAMS_PER_SET} cumulative streams of one metric`);
      continue;
    }
    if (delta !== 0) step(c, delta);
  }
  streamsStore.save(db, orgId, sets);
}

function inTimeOrder(points: readonly Cumulative[]): boolean {
  for (let i = 1; i < points.length; i++) if ((points[i - 1] as Cumulative).point.timeNs > (points[i] as Cumulative).point.timeNs) return false;
  return true;
}
