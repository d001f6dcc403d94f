/**
 * The records of an OTLP export, read from the JSON mapping's shape or from the decoded protobuf
 * message itself (the same lowerCamelCase field names; see proto.ts): resource and scope, then
 * each metric data point, log record or span with its attributes flattened to plain values.
 * Reading the decoded message directly spares a conversion of every message to plain data, the
 * largest cost of a protobuf export once decoded. Two differences are bridged here: a field is
 * present when it is the object's own (a decoded message keeps proto3 defaults on its
 * prototype), and 64-bit integers may be protobufjs Longs and bytes a Uint8Array. Anything
 * malformed in a record is a reason to reject that record, never the request.
 */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attrs = Record<string, AttrValue>;

export interface Origin {
  resource: Attrs;
  /** JSON.stringify(resource), made once per resource: record ids include it (originId in mappings/native.ts). */
  resourceJson: string;
  scope: string;
}

export type Temporality = 'delta' | 'cumulative' | 'unspecified';

export interface MetricPoint extends Origin {
  metric: string;
  kind: 'sum' | 'gauge' | 'histogram' | 'summary';
  temporality: Temporality;
  monotonic: boolean;
  attrs: Attrs;
  startNs: bigint;
  timeNs: bigint;
  /** The point's value; a histogram's or summary's sum. */
  value: number;
}

export interface LogRecordIn extends Origin {
  name: string;
  attrs: Attrs;
  timeNs: bigint;
}

export interface SpanIn extends Origin {
  name: string;
  attrs: Attrs;
  startNs: bigint;
  endNs: bigint;
}

type Plain = Record<string, unknown>;
const asList = (v: unknown): Plain[] => (Array.isArray(v) ? v.filter((x): x is Plain => typeof x === 'object' && x !== null) : []);
const asObject = (v: unknown): Plain => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Plain) : {});

/** A field the record carries (JSON: a key; a decoded message: an own property, not a prototype default). */
const has = (o: Plain, key: string) => Object.hasOwn(o, key);

/** protobufjs's 64-bit integer: two 32-bit halves. */
interface Long {
  low: number;
  high: number;
  unsigned: boolean;
}
const isLong = (v: object): v is Long => typeof (v as Long).low === 'number' && typeof (v as Long).high === 'number';

/** 64-bit integers come as decimal strings or JSON numbers, or decoded from protobuf as Longs. */
export function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'object' && v !== null && isLong(v)) {
    // A number when it fits (the usual nanosecond timestamp does not, so this is rare but cheap).
    if (v.high === 0 && v.low >= 0) return BigInt(v.low);
    const high = v.unsigned ? BigInt(v.high >>> 0) : BigInt(v.high);
    return (high << 32n) | BigInt(v.low >>> 0);
  }
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return BigInt(v);
  return undefined;
}

/** Doubles may be JSON numbers or, for the special values, the strings NaN, Infinity, -Infinity. */
function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v === 'NaN') return Number.NaN;
    if (v === 'Infinity') return Number.POSITIVE_INFINITY;
    if (v === '-Infinity') return Number.NEGATIVE_INFINITY;
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
  }
  return undefined;
}

/**
 * How deep arrayValue and kvlistValue may nest in one value (docs/otlp.md, "Transport"). A walk
 * without a bound overflows the stack on a hostile export (thousands of levels), which answered
 * 503 and so was retried forever; protobuf stops at protobufjs's 100 message levels, about 31 of
 * kvlistValue, so no real client sends anything near this.
 */
export const MAX_VALUE_DEPTH = 32;

/** An export holding a value nested past MAX_VALUE_DEPTH: the whole request is malformed (400), as in protobuf. */
export class ValueTooDeepError extends Error {
  constructor() {
    super(`An attribute or body value is nested more than ${MAX_VALUE_DEPTH} levels deep (arrayValue, kvlistValue).`);
  }
}

/** `depth`: the arrays and key-value lists `v` lies within. */
function anyValue(v: unknown, depth = 0): AttrValue {
  const o = asObject(v);
  if (has(o, 'stringValue')) return String(o.stringValue);
  if (has(o, 'boolValue')) return o.boolValue === true;
  if (has(o, 'intValue')) {
    const n = toBigInt(o.intValue);
    return n === undefined ? null : n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  }
  if (has(o, 'doubleValue')) return toNumber(o.doubleValue) ?? null;
  const nested = has(o, 'arrayValue') || has(o, 'kvlistValue');
  if (nested && depth >= MAX_VALUE_DEPTH) throw new ValueTooDeepError();
  if (has(o, 'arrayValue')) return asList(asObject(o.arrayValue).values).map((x) => anyValue(x, depth + 1));
  if (has(o, 'kvlistValue')) return attributes(asObject(o.kvlistValue).values, depth + 1);
  // Base64, as the JSON mapping writes bytes.
  if (has(o, 'bytesValue'))
    return o.bytesValue instanceof Uint8Array
      ? Buffer.from(o.bytesValue.buffer, o.bytesValue.byteOffset, o.bytesValue.byteLength).toString('base64')
      : String(o.bytesValue);
  return null;
}

/** Key-value pairs as an object; `depth` as for anyValue. Throws ValueTooDeepError past MAX_VALUE_DEPTH. */
export function attributes(list: unknown, depth = 0): Attrs {
  const out: Attrs = {};
  for (const kv of asList(list)) if (typeof kv.key === 'string') out[kv.key] = anyValue(kv.value, depth);
  return out;
}

const TEMPORALITY: Record<string, Temporality> = {
  '1': 'delta',
  '2': 'cumulative',
  AGGREGATION_TEMPORALITY_DELTA: 'delta',
  AGGREGATION_TEMPORALITY_CUMULATIVE: 'cumulative',
};
const temporalityOf = (v: unknown): Temporality => TEMPORALITY[String(v)] ?? 'unspecified';

export interface MetricPoints {
  points: MetricPoint[];
  /** Data points that cannot be used: how many, and each reason once. */
  rejected: { count: number; reasons: string[] };
}

const MAX_FIXED64 = 2n ** 64n - 1n;

/** A data point as read from an export: added to the points, or its reason to the rejections. */
export function readPoint(out: MetricPoints, p: Omit<MetricPoint, 'timeNs' | 'value'> & { timeNs: bigint | undefined; value: number | undefined }): void {
  let reason: string | undefined;
  if (p.timeNs === undefined) reason = `${p.metric}: a data point without timeUnixNano`;
  // fixed64 in protobuf; only JSON can say otherwise.
  else if (p.timeNs < 0n || p.timeNs > MAX_FIXED64 || p.startNs < 0n || p.startNs > MAX_FIXED64)
    reason = `${p.metric}: a data point whose time is not an unsigned 64-bit number of nanoseconds`;
  else if (p.value === undefined || !Number.isFinite(p.value)) reason = `${p.metric}: a data point whose value is not a finite number`;
  else return void out.points.push(p as MetricPoint);
  out.rejected.count += 1;
  if (!out.rejected.reasons.includes(reason)) out.rejected.reasons.push(reason);
}

/** Every data point of a metrics export (JSON, or a decoded protobuf message), or for one that cannot be read, why. */
export function metricPoints(body: Plain): MetricPoints {
  const out: MetricPoints = { points: [], rejected: { count: 0, reasons: [] } };
  for (const rm of asList(body.resourceMetrics)) {
    const resource = attributes(asObject(rm.resource).attributes);
    const resourceJson = JSON.stringify(resource);
    for (const sm of asList(rm.scopeMetrics)) {
      const scope = String(asObject(sm.scope).name ?? '');
      for (const m of asList(sm.metrics)) {
        const metric = typeof m.name === 'string' ? m.name : '';
        const [kind, data] = m.sum
          ? (['sum', asObject(m.sum)] as const)
          : m.gauge
            ? (['gauge', asObject(m.gauge)] as const)
            : m.histogram
              ? (['histogram', asObject(m.histogram)] as const)
              : m.exponentialHistogram
                ? (['histogram', asObject(m.exponentialHistogram)] as const)
                : m.summary
                  ? (['summary', asObject(m.summary)] as const)
                  : ([undefined, {}] as const);
        if (!kind) continue;
        const temporality = kind === 'summary' ? 'cumulative' : kind === 'gauge' ? 'unspecified' : temporalityOf(data.aggregationTemporality);
        const monotonic = data.isMonotonic === true;
        for (const p of asList(data.dataPoints)) {
          const value =
            kind === 'sum' || kind === 'gauge' ? (has(p, 'asInt') ? Number(toBigInt(p.asInt) ?? Number.NaN) : toNumber(p.asDouble)) : toNumber(p.sum ?? 0);
          readPoint(out, {
            resource,
            resourceJson,
            scope,
            metric,
            kind,
            temporality,
            monotonic,
            attrs: attributes(p.attributes),
            startNs: toBigInt(p.startTimeUnixNano ?? '0') ?? 0n,
            timeNs: toBigInt(p.timeUnixNano),
            value,
          });
        }
      }
    }
  }
  return out;
}

/** An event name such as `codex.user_prompt` or `user_prompt`: not a code location, with its spaces and slashes. */
const EVENT_NAME = /^[\w.:-]+$/;

/**
 * A log record's event name: its `event_name` field when that holds a name, else its `event.name`
 * attribute, else the field anyway, else a text body. Codex 0.169 fills the field with a code
 * location (`event otel/src/events/session_telemetry.rs:703`) and puts the name in the attribute.
 * A code location with a text body and no `event.name` is a line of the client's own log, not an
 * event (Codex 0.169 logs "flushing OTEL metrics" so when it exports metrics): it has no name.
 */
export function logEventName(field: unknown, attrs: Attrs, body: unknown): string {
  if (typeof field === 'string' && EVENT_NAME.test(field)) return field;
  const attr = attrs['event.name'];
  if (typeof attr === 'string' && attr !== '') return attr;
  if (typeof field === 'string' && field !== '') return typeof body === 'string' ? '' : field;
  return typeof body === 'string' ? body : '';
}

export function logRecords(body: Plain): LogRecordIn[] {
  const out: LogRecordIn[] = [];
  for (const rl of asList(body.resourceLogs)) {
    const resource = attributes(asObject(rl.resource).attributes);
    const resourceJson = JSON.stringify(resource);
    for (const sl of asList(rl.scopeLogs)) {
      const scope = String(asObject(sl.scope).name ?? '');
      for (const r of asList(sl.logRecords)) {
        const attrs = attributes(r.attributes);
        const body = anyValue(r.body);
        const name = logEventName(r.eventName, attrs, body);
        const timeNs = toBigInt(r.timeUnixNano) || toBigInt(r.observedTimeUnixNano) || 0n;
        out.push({ resource, resourceJson, scope, name, attrs, timeNs });
      }
    }
  }
  return out;
}

export function spans(body: Plain): SpanIn[] {
  const out: SpanIn[] = [];
  for (const rs of asList(body.resourceSpans)) {
    const resource = attributes(asObject(rs.resource).attributes);
    const resourceJson = JSON.stringify(resource);
    for (const ss of asList(rs.scopeSpans)) {
      const scope = String(asObject(ss.scope).name ?? '');
      for (const s of asList(ss.spans)) {
        out.push({
          resource,
          resourceJson,
          scope,
          name: typeof s.name === 'string' ? s.name : '',
          attrs: attributes(s.attributes),
          startNs: toBigInt(s.startTimeUnixNano) ?? 0n,
          endNs: toBigInt(s.endTimeUnixNano) ?? 0n,
        });
      }
    }
  }
  return out;
}

/** Nanoseconds since the epoch as milliseconds. */
export const nsToMs = (ns: bigint): number => Number(ns / 1_000_000n);
