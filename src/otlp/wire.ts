import protobuf from 'protobufjs';
import { messages } from './proto.js';
import { readPoint, toBigInt, type Attrs, type AttrValue, type LogRecordIn, type MetricPoints } from './records.js';

/**
 * Metrics and logs exports read from their protobuf bytes with protobufjs's wire Reader straight
 * into the records records.ts makes of a decoded message: no message object per data point,
 * attribute, value and 64-bit integer first, which was the largest cost of an export in Node
 * (docs/otlp.md "Performance"). The field numbers come from proto.ts's descriptor, and the
 * result is the same as records.ts's reading of protobufjs's decoding, field for field: a field
 * of the wrong wire type is skipped as unknown, a repeated singular field's last value counts
 * (a message one is merged), a oneof keeps its last member, strings must be valid UTF-8, and
 * the same nesting limit holds (test/otlp/wire.test.ts compares the two on generated exports).
 * Spans, with no volume to speak of, go through the decoded message.
 */

const { Reader } = protobuf;
type Reader = protobuf.Reader;

/** A field's number in proto.ts's descriptor. */
function field(type: protobuf.Type, name: string): number {
  const f = type.fields[name];
  if (!f) throw new Error(`otlp proto: ${type.name} has no field ${name}`);
  return f.id;
}
const lookup = (name: string) => messages.metricsRequest.root.lookupType(`otlp.${name}`);
const T = {
  anyValue: lookup('AnyValue'),
  keyValue: lookup('KeyValue'),
  list: lookup('ArrayValue'),
  kvList: lookup('KeyValueList'),
  scope: lookup('InstrumentationScope'),
  resource: lookup('Resource'),
  resourceMetrics: lookup('ResourceMetrics'),
  scopeMetrics: lookup('ScopeMetrics'),
  metric: lookup('Metric'),
  sum: lookup('Sum'),
  numberPoint: lookup('NumberDataPoint'),
  histogramPoint: lookup('HistogramDataPoint'),
  expPoint: lookup('ExponentialHistogramDataPoint'),
  summaryPoint: lookup('SummaryDataPoint'),
  resourceLogs: lookup('ResourceLogs'),
  scopeLogs: lookup('ScopeLogs'),
  logRecord: lookup('LogRecord'),
};

// Wire types.
const VARINT = 0;
const I64 = 1;
const LEN = 2;

const F = {
  string: field(T.anyValue, 'stringValue'),
  bool: field(T.anyValue, 'boolValue'),
  int: field(T.anyValue, 'intValue'),
  double: field(T.anyValue, 'doubleValue'),
  array: field(T.anyValue, 'arrayValue'),
  kvlist: field(T.anyValue, 'kvlistValue'),
  bytes: field(T.anyValue, 'bytesValue'),
  listValues: field(T.list, 'values'),
  kvValues: field(T.kvList, 'values'),
  key: field(T.keyValue, 'key'),
  value: field(T.keyValue, 'value'),
  scopeName: field(T.scope, 'name'),
  scopeVersion: field(T.scope, 'version'),
  scopeAttrs: field(T.scope, 'attributes'),
  resourceAttrs: field(T.resource, 'attributes'),
  metricName: field(T.metric, 'name'),
  metricUnit: field(T.metric, 'unit'),
  gauge: field(T.metric, 'gauge'),
  sum: field(T.metric, 'sum'),
  histogram: field(T.metric, 'histogram'),
  expHistogram: field(T.metric, 'exponentialHistogram'),
  summary: field(T.metric, 'summary'),
  dataPoints: field(T.sum, 'dataPoints'),
  temporality: field(T.sum, 'aggregationTemporality'),
  monotonic: field(T.sum, 'isMonotonic'),
  start: field(T.numberPoint, 'startTimeUnixNano'),
  time: field(T.numberPoint, 'timeUnixNano'),
  asDouble: field(T.numberPoint, 'asDouble'),
  asInt: field(T.numberPoint, 'asInt'),
  logTime: field(T.logRecord, 'timeUnixNano'),
  logObserved: field(T.logRecord, 'observedTimeUnixNano'),
  logBody: field(T.logRecord, 'body'),
  logAttrs: field(T.logRecord, 'attributes'),
  logEventName: field(T.logRecord, 'eventName'),
  logSeverity: field(T.logRecord, 'severityNumber'),
  logSeverityText: field(T.logRecord, 'severityText'),
};
/** Where an export keeps its resources, a resource its resource and scopes, a scope its scope and items. */
interface Layout {
  resources: number;
  resource: number;
  scopes: number;
  scope: number;
  items: number;
}
const METRICS: Layout = {
  resources: field(messages.metricsRequest, 'resourceMetrics'),
  resource: field(T.resourceMetrics, 'resource'),
  scopes: field(T.resourceMetrics, 'scopeMetrics'),
  scope: field(T.scopeMetrics, 'scope'),
  items: field(T.scopeMetrics, 'metrics'),
};
const LOGS: Layout = {
  resources: field(messages.logsRequest, 'resourceLogs'),
  resource: field(T.resourceLogs, 'resource'),
  scopes: field(T.resourceLogs, 'scopeLogs'),
  scope: field(T.scopeLogs, 'scope'),
  items: field(T.scopeLogs, 'logRecords'),
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

/** Enters a length-delimited message: returns the length the reader had, to give back to `leave`. */
function enter(r: Reader, depth: number): number {
  if (depth > Reader.recursionLimit) throw Error('max depth exceeded');
  const end = r.size() + r.pos;
  if (end > r.len) throw RangeError('index out of range');
  const outer = r.len;
  r.len = end;
  return outer;
}
function leave(r: Reader, outer: number): void {
  if (r.pos !== r.len) throw RangeError('index out of range');
  r.len = outer;
}

/** An int64's high half within which the number is a safe integer (|n| < 2^53). */
const SAFE_HIGH = 2 ** 21;

/**
 * An unsigned fixed64 as a bigint. The data points of an export mostly share their start and
 * their time: the last two values read are kept, so that reading one of them again makes no
 * bigint (a nanosecond time takes four).
 */
function fixed64(r: Reader): bigint {
  const low = r.fixed32();
  const high = r.fixed32();
  if (high === 0) return BigInt(low);
  const k = kept64;
  if (low === k.low0 && high === k.high0) return k.value0;
  if (low === k.low1 && high === k.high1) return k.value1;
  const value = (BigInt(high) << 32n) | BigInt(low);
  // The older of the two makes room.
  k.low1 = k.low0;
  k.high1 = k.high0;
  k.value1 = k.value0;
  k.low0 = low;
  k.high0 = high;
  k.value0 = value;
  return value;
}
// fixed32() reads unsigned, so -1 matches nothing.
const kept64 = { low0: -1, high0: -1, value0: 0n, low1: -1, high1: -1, value1: 0n };

/** An AnyValue being read: its oneof member (0 none) and value; array and kvlist values grow in place when merged. */
interface AnyState {
  member: number;
  value: unknown;
}

function readAny(r: Reader, depth: number, s: AnyState): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.string && w === LEN) set(s, f, readText(r));
    else if (f === F.bool && w === VARINT) set(s, f, r.bool());
    else if (f === F.int && w === VARINT) set(s, f, r.int64());
    else if (f === F.double && w === I64) set(s, f, r.double());
    else if (f === F.bytes && w === LEN) set(s, f, r.bytes());
    else if (f === F.array && w === LEN)
      readList(
        r,
        depth + 1,
        member(s, f, () => [] as AnyState[]),
      );
    else if (f === F.kvlist && w === LEN)
      readKvList(
        r,
        depth + 1,
        member(s, f, () => [] as KeyValue[]),
      );
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
}

/**
 * A string, as r.stringVerify() reads it. Short ASCII text (most attribute values) is copied
 * out of the buffer whole: stringVerify builds it up eight characters at a time, a string
 * each step, and leaves a longer one in pieces that are joined again when it is first read.
 */
function readText(r: Reader): string {
  const at = r.pos;
  // The length as stringVerify reads it (size() refuses what it refuses, with the same error).
  const length = r.size();
  const start = r.pos;
  const end = start + length;
  if (length > MAX_SLICED_TEXT || end > r.len) {
    r.pos = at;
    return r.stringVerify();
  }
  const buf = r.buf;
  for (let i = start; i < end; i++) {
    // Not ASCII: decoded (and checked) by protobufjs.
    if ((buf[i] as number) > 0x7f) {
      r.pos = at;
      return r.stringVerify();
    }
  }
  r.pos = end;
  // ASCII reads the same as Latin-1. Buffer's own slice method (which toString calls after
  // working out the encoding; protobufjs's BufferReader calls utf8Slice the same way).
  return (buf as unknown as Latin1Slice).latin1Slice(start, end);
}
interface Latin1Slice {
  latin1Slice(start: number, end: number): string;
}
const MAX_SLICED_TEXT = 256;

const set = (s: AnyState, member: number, value: unknown) => {
  s.member = member;
  s.value = value;
};
/** The value of a message member, merged into when it is already the member set. */
function member<V>(s: AnyState, f: number, make: () => V): V {
  if (s.member !== f) set(s, f, make());
  return s.value as V;
}

function readList(r: Reader, depth: number, values: AnyState[]): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.listValues && (tag & 7) === LEN) {
      const s: AnyState = { member: 0, value: undefined };
      readAny(r, depth + 1, s);
      values.push(s);
    } else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

interface KeyValue {
  key: string;
  value: AnyState;
}

function readKvList(r: Reader, depth: number, list: KeyValue[]): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.kvValues && (tag & 7) === LEN) list.push(readKeyValue(r, depth + 1));
    else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

function readKeyValue(r: Reader, depth: number): KeyValue {
  const value: AnyState = { member: 0, value: undefined };
  return { key: readKeyValueInto(r, depth, value), value };
}

/**
 * A KeyValue's key, as r.stringVerify() reads it. Exports repeat the same few keys in every
 * record: a short ASCII key is decoded once and its string kept (in a slot chosen by its length
 * and three of its bytes, replaced when another key lands there), so that every record reuses
 * one string, whose hash and whose interning as a property name are then worked out once.
 */
function readKey(r: Reader): string {
  const at = r.pos;
  // The length as stringVerify reads it (size() refuses what it refuses, with the same error).
  const length = r.size();
  const start = r.pos;
  const end = start + length;
  if (length === 0 || length > MAX_KEPT_KEY || end > r.len) {
    r.pos = at;
    return r.stringVerify();
  }
  const buf = r.buf;
  // The slot, by the length and three of the bytes: the comparison below reads them all anyway.
  const slot =
    Math.imul(length ^ ((buf[start] as number) << 7) ^ ((buf[start + (length >> 1)] as number) << 14) ^ ((buf[end - 1] as number) << 21), 0x9e3779b1) >>>
    (32 - KEPT_KEY_BITS);
  const kept = keptKeys[slot];
  if (kept !== undefined && kept.length === length) {
    let i = 0;
    while (i < length && kept.charCodeAt(i) === buf[start + i]) i++;
    // Equal to a kept key, so ASCII too.
    if (i === length) {
      r.pos = end;
      return kept;
    }
  }
  for (let i = start; i < end; i++) {
    // Not ASCII: decoded (and checked) as any string.
    if ((buf[i] as number) > 0x7f) {
      r.pos = at;
      return r.stringVerify();
    }
  }
  r.pos = end;
  const key = (buf as unknown as Latin1Slice).latin1Slice(start, end);
  keptKeys[slot] = key;
  return key;
}
const MAX_KEPT_KEY = 64;
const KEPT_KEY_BITS = 10;
const keptKeys: (string | undefined)[] = new Array(2 ** KEPT_KEY_BITS).fill(undefined);

/** A KeyValue's key; its value is read into `value` (merged into it when the field comes again). */
function readKeyValueInto(r: Reader, depth: number, value: AnyState): string {
  let key = '';
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.key && w === LEN) key = readKey(r);
    else if (f === F.value && w === LEN) readAny(r, depth + 1, value);
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return key;
}

/** What records.ts's anyValue makes of the same AnyValue. */
function attrValue(s: AnyState | undefined): AttrValue {
  if (s === undefined) return null;
  switch (s.member) {
    case F.string:
      return s.value as string;
    case F.bool:
      return s.value as boolean;
    case F.int: {
      // Mostly well within the safe integers: then the halves make the number exactly.
      const long = s.value as { low: number; high: number };
      if (long.high > -SAFE_HIGH && long.high < SAFE_HIGH) return long.high * 2 ** 32 + (long.low >>> 0);
      const n = toBigInt(s.value) as bigint;
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
    }
    case F.double:
      return s.value as number;
    case F.array:
      return (s.value as AnyState[]).map(attrValue);
    case F.kvlist:
      return attrsOf(s.value as KeyValue[]);
    case F.bytes: {
      const b = s.value as Uint8Array;
      return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
    }
    default:
      return null;
  }
}

function attrsOf(list: readonly KeyValue[]): Attrs {
  const out: Attrs = {};
  for (const kv of list) out[kv.key] = attrValue(kv.value);
  return out;
}

/**
 * A repeated KeyValue field's element, added to the attributes being read (later keys win, as in
 * records.ts). Its value is read into one state reused from attribute to attribute (made into a
 * plain value before the next is read): most attributes cost no object.
 */
function readAttribute(r: Reader, depth: number, out: Attrs): void {
  scratch.member = 0;
  scratch.value = undefined;
  const key = readKeyValueInto(r, depth, scratch);
  out[key] = attrValue(scratch);
}
const scratch: AnyState = { member: 0, value: undefined };

/** A Resource's attributes, merged into `out` (a repeated resource field merges). */
function readResource(r: Reader, depth: number, out: Attrs): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.resourceAttrs && (tag & 7) === LEN) readAttribute(r, depth + 1, out);
    else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

/**
 * An InstrumentationScope's name, or `name` when it has none (merged: a later empty name clears
 * it). Its version and attributes are read only to be refused where protobufjs refuses them.
 */
function readScopeName(r: Reader, depth: number, name: string): string {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.scopeName && w === LEN) name = r.stringVerify();
    else if (f === F.scopeVersion && w === LEN) r.stringVerify();
    else if (f === F.scopeAttrs && w === LEN) readKeyValue(r, depth + 1);
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return name;
}

/** A resource of an export: its attributes (and their JSON, for record ids) and each scope's name and items. */
interface ResourceOf<T> {
  resource: Attrs;
  resourceJson: string;
  scopes: { name: string; items: T[] }[];
}

/**
 * The resources of an export (ExportMetricsServiceRequest, ExportLogsServiceRequest), each scope's
 * items read by `item`. Items are returned with their resource and scope once the resource is
 * read whole: its fields may come in any order.
 */
function readExport<T>(bytes: Uint8Array, layout: Layout, item: (r: Reader, depth: number) => T): ResourceOf<T>[] {
  const out: ResourceOf<T>[] = [];
  // Over a Buffer (a view of the same bytes), which readText slices.
  const r = Reader.create(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === layout.resources && (tag & 7) === LEN) out.push(readResourceOf(r, 1, layout, item));
    else r.skipType(tag & 7, 0, tag >>> 3);
  }
  return out;
}

function readResourceOf<T>(r: Reader, depth: number, layout: Layout, item: (r: Reader, depth: number) => T): ResourceOf<T> {
  const resource: Attrs = {};
  const scopes: { name: string; items: T[] }[] = [];
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === layout.resource && w === LEN) readResource(r, depth + 1, resource);
    else if (f === layout.scopes && w === LEN) {
      const scope = { name: '', items: [] as T[] };
      const inner = enter(r, depth + 1);
      while (r.pos < r.len) {
        const t = r.tag();
        if (t >>> 3 === layout.scope && (t & 7) === LEN) scope.name = readScopeName(r, depth + 2, scope.name);
        else if (t >>> 3 === layout.items && (t & 7) === LEN) scope.items.push(item(r, depth + 2));
        else r.skipType(t & 7, depth + 1, t >>> 3);
      }
      leave(r, inner);
      scopes.push(scope);
    } else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return { resource, resourceJson: JSON.stringify(resource), scopes };
}

// ---- metrics

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

// ---- logs

interface RawLog {
  attrs: Attrs;
  body: AnyState | undefined;
  eventName: string;
  timeNs: bigint;
  observedNs: bigint;
}

function readLog(r: Reader, depth: number): RawLog {
  const l: RawLog = { attrs: {}, body: undefined, eventName: '', timeNs: 0n, observedNs: 0n };
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.logAttrs && w === LEN) readAttribute(r, depth + 1, l.attrs);
    else if (f === F.logTime && w === I64) l.timeNs = fixed64(r);
    else if (f === F.logObserved && w === I64) l.observedNs = fixed64(r);
    else if (f === F.logEventName && w === LEN) l.eventName = readText(r);
    else if (f === F.logBody && w === LEN) readAny(r, depth + 1, (l.body ??= { member: 0, value: undefined }));
    // Read to be refused where protobufjs refuses them (a string must be valid UTF-8).
    else if (f === F.logSeverity && w === VARINT) r.int32();
    else if (f === F.logSeverityText && w === LEN) r.stringVerify();
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return l;
}

/** Every log record of a protobuf logs export, as records.ts's logRecords reads the decoded message. */
export function logRecordsFromWire(bytes: Uint8Array): LogRecordIn[] {
  const out: LogRecordIn[] = [];
  for (const { resource, resourceJson, scopes } of readExport(bytes, LOGS, readLog)) {
    for (const scope of scopes) {
      for (const l of scope.items) {
        const body = attrValue(l.body);
        const eventName = l.attrs['event.name'];
        const name = l.eventName || (typeof eventName === 'string' && eventName) || (typeof body === 'string' ? body : '');
        out.push({ resource, resourceJson, scope: scope.name, name, attrs: l.attrs, timeNs: l.timeNs || l.observedNs || 0n });
      }
    }
  }
  return out;
}
