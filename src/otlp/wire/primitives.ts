import protobuf from 'protobufjs';
import { messages } from '../proto.js';

/**
 * The wire primitives of the protobuf readers (values.ts, metrics.ts, logs.ts): the field
 * numbers of proto.ts's descriptor, entering and leaving a length-delimited message under the
 * nesting limit, 64-bit times, and text. Metrics and logs exports are read from their protobuf
 * bytes with protobufjs's wire Reader straight into the records records.ts makes of a decoded
 * message: no message object per data point, attribute, value and 64-bit integer first, which
 * was the largest cost of an export in Node (docs/otlp.md "Performance"). The result is the same
 * as records.ts's reading of protobufjs's decoding, field for field: a field of the wrong wire
 * type is skipped as unknown, a repeated singular field's last value counts (a message one is
 * merged), a oneof keeps its last member, strings must be valid UTF-8, and the same nesting limit
 * holds (test/otlp/wire.test.ts compares the two on generated exports). Spans, with no volume to
 * speak of, go through the decoded message.
 */

export const { Reader } = protobuf;
export type Reader = protobuf.Reader;

/** A field's number in proto.ts's descriptor. */
export function field(type: protobuf.Type, name: string): number {
  const f = type.fields[name];
  if (!f) throw new Error(`otlp proto: ${type.name} has no field ${name}`);
  return f.id;
}
export const lookup = (name: string) => messages.metricsRequest.root.lookupType(`otlp.${name}`);
export const T = {
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
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;

export const F = {
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

/** Enters a length-delimited message: returns the length the reader had, to give back to `leave`. */
export function enter(r: Reader, depth: number): number {
  if (depth > Reader.recursionLimit) throw Error('max depth exceeded');
  const end = r.size() + r.pos;
  if (end > r.len) throw RangeError('index out of range');
  const outer = r.len;
  r.len = end;
  return outer;
}
export function leave(r: Reader, outer: number): void {
  if (r.pos !== r.len) throw RangeError('index out of range');
  r.len = outer;
}

/** An int64's high half within which the number is a safe integer (|n| < 2^53). */
export const SAFE_HIGH = 2 ** 21;

/**
 * An unsigned fixed64 as a bigint. The data points of an export mostly share their start and
 * their time: the last two values read are kept, so that reading one of them again makes no
 * bigint (a nanosecond time takes four).
 */
export function fixed64(r: Reader): bigint {
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

/**
 * A string, as r.stringVerify() reads it. Short ASCII text (most attribute values) is copied
 * out of the buffer whole: stringVerify builds it up eight characters at a time, a string
 * each step, and leaves a longer one in pieces that are joined again when it is first read.
 */
export function readText(r: Reader): string {
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
  // ASCII reads the same as Latin-1 (the reader is over a Buffer: readExport in values.ts).
  return (buf as Buffer).toString('latin1', start, end);
}
const MAX_SLICED_TEXT = 256;

/**
 * A KeyValue's key, as r.stringVerify() reads it. Exports repeat the same few keys in every
 * record: a short ASCII key is decoded once and its string kept (in a slot chosen by its length
 * and three of its bytes, replaced when another key lands there), so that every record reuses
 * one string, whose hash and whose interning as a property name are then worked out once.
 */
export function readKey(r: Reader): string {
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
  const key = (buf as Buffer).toString('latin1', start, end);
  keptKeys[slot] = key;
  return key;
}
const MAX_KEPT_KEY = 64;
const KEPT_KEY_BITS = 10;
const keptKeys: (string | undefined)[] = new Array(2 ** KEPT_KEY_BITS).fill(undefined);
