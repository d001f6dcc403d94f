import type { Attrs, MetricPoints } from '../records.js';
import { readPoint } from '../records.js';
import { messages } from '../proto.js';
import { enter, F, field, fixed64, I64, LEN, leave, lookup, T, VARINT, type Reader } from './primitives.js';
import { readAttribute, readExport, type Layout } from './values.js';

/** Metrics exports read from the wire (primitives.ts). */

const METRICS: Layout = {
  resources: field(messages.metricsRequest, 'resourceMetrics'),
  resource: field(T.resourceMetrics, 'resource'),
  scopes: field(T.resourceMetrics, 'scopeMetrics'),
  scope: field(T.scopeMetrics, 'scope'),
  items: field(T.scopeMetrics, 'metrics'),
};

/** Each kind of data point: where its attributes and its value (histograms and summaries: the sum) are. */
const POINT_FIELDS = {
  number: { attrs: field(T.numberPoint, 'attributes') },
  histogram: { attrs: field(T.histogramPoint, 'attributes'), sum: field(T.histogramPoint, 'sum') },
  exp: { attrs: field(T.expPoint, 'attributes'), sum: field(T.expPoint, 'sum') },
  summary: { attrs: field(T.summaryPoint, 'attributes'), sum: field(T.summaryPoint, 'sum') },
};
// One number each for what every kind of data point and metric data shares.
for (const t of [T.histogramPoint, T.expPoint, T.summaryPoint]) {
  if (field(t, 'startTimeUnixNano') !== F.start || field(t, 'timeUnixNano') !== F.time) throw new Error(`otlp proto: ${t.name} has other time fields`);
}
for (const name of ['Gauge', 'Histogram', 'ExponentialHistogram', 'Summary']) {
  const t = lookup(name);
  if (field(t, 'dataPoints') !== F.dataPoints || (name.endsWith('Histogram') && field(t, 'aggregationTemporality') !== F.temporality))
    throw new Error(`otlp proto: ${name} has other fields`);
}

type Kind = 'sum' | 'gauge' | 'histogram' | 'exp' | 'summary';

/** A data point as read, before its metric and origin are known (fields may come in any order). */
interface RawPoint {
  attrs: Attrs;
  startNs: bigint;
  timeNs: bigint;
  /** A number point's value (its oneof's last member), a histogram's or summary's sum; 0 when absent. */
  value: number;
}

interface MetricData {
  kind: Kind;
  temporality: number;
  monotonic: boolean;
  points: RawPoint[];
}

function readPointOf(r: Reader, depth: number, kind: Kind): RawPoint {
  const p: RawPoint = { attrs: {}, startNs: 0n, timeNs: 0n, value: 0 };
  const fields = kind === 'sum' || kind === 'gauge' ? POINT_FIELDS.number : POINT_FIELDS[kind];
  const sum = 'sum' in fields ? fields.sum : -1;
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === fields.attrs && w === LEN) readAttribute(r, depth + 1, p.attrs);
    else if (f === F.start && w === I64) p.startNs = fixed64(r);
    else if (f === F.time && w === I64) p.timeNs = fixed64(r);
    else if (sum === -1 && f === F.asDouble && w === I64) p.value = r.double();
    else if (sum === -1 && f === F.asInt && w === I64) p.value = Number(BigInt.asIntN(64, fixed64(r)));
    else if (f === sum && w === I64) p.value = r.double();
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return p;
}

function readMetricData(r: Reader, depth: number, kind: Kind, into: MetricData): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.dataPoints && w === LEN) into.points.push(readPointOf(r, depth + 1, kind));
    else if (f === F.temporality && w === VARINT && kind !== 'gauge' && kind !== 'summary') into.temporality = r.int32();
    else if (f === F.monotonic && w === VARINT && kind === 'sum') into.monotonic = r.bool();
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
}

const DATA_KINDS: ReadonlyMap<number, Kind> = new Map([
  [F.gauge, 'gauge'],
  [F.sum, 'sum'],
  [F.histogram, 'histogram'],
  [F.expHistogram, 'exp'],
  [F.summary, 'summary'],
]);

function readMetric(r: Reader, depth: number): { name: string; data: MetricData | undefined } {
  let name = '';
  let data: MetricData | undefined;
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    const kind = DATA_KINDS.get(f);
    if (f === F.metricName && w === LEN) name = r.stringVerify();
    else if (f === F.metricUnit && w === LEN) r.stringVerify();
    else if (kind !== undefined && w === LEN) {
      // The data oneof keeps its last member; the same member again is merged into.
      if (data?.kind !== kind) data = { kind, temporality: 0, monotonic: false, points: [] };
      readMetricData(r, depth + 1, kind, data);
    } else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return { name, data };
}

const TEMPORALITIES = { 1: 'delta', 2: 'cumulative' } as const;

/** Every data point of a protobuf metrics export, as records.ts's metricPoints reads the decoded message. */
export function metricPointsFromWire(bytes: Uint8Array): MetricPoints {
  const out: MetricPoints = { points: [], rejected: { count: 0, reasons: [] } };
  for (const { resource, resourceJson, scopes } of readExport(bytes, METRICS, readMetric)) {
    for (const scope of scopes) {
      for (const { name, data } of scope.items) {
        if (!data) continue;
        const kind = data.kind === 'exp' ? 'histogram' : data.kind;
        const temporality = kind === 'summary' ? 'cumulative' : kind === 'gauge' ? 'unspecified' : (TEMPORALITIES[data.temporality as 1 | 2] ?? 'unspecified');
        for (const p of data.points) {
          readPoint(out, {
            resource,
            resourceJson,
            scope: scope.name,
            metric: name,
            kind,
            temporality,
            monotonic: data.monotonic,
            attrs: p.attrs,
            startNs: p.startNs,
            timeNs: p.timeNs,
            value: p.value,
          });
        }
      }
    }
  }
  return out;
}
