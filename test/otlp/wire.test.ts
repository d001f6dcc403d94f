import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeMessage, messages } from '../../src/otlp/proto.js';
import { logRecords, metricPoints } from '../../src/otlp/records.js';
import { logRecordsFromWire } from '../../src/otlp/wire/logs.js';
import { metricPointsFromWire } from '../../src/otlp/wire/metrics.js';

// The wire reader must read every protobuf export exactly as records.ts reads protobufjs's
// decoding of it (the first release's way, which the ids of stored records come from).

const root = messages.metricsRequest.root;
const type = (name: string) => root.lookupType(`otlp.${name}`);

/** What records.ts reads from protobufjs's decoding, or the error protobufjs throws. */
const viaDecoder = <T>(message: protobuf.Type, read: (m: Record<string, unknown>) => T, bytes: Uint8Array): T | string => {
  try {
    return read(decodeMessage(message, bytes));
  } catch (e) {
    return (e as Error).name;
  }
};
const viaWire = <T>(read: (b: Uint8Array) => T, bytes: Uint8Array): T | string => {
  try {
    return read(bytes);
  } catch (e) {
    return (e as Error).name;
  }
};
const sameMetrics = (bytes: Uint8Array) => expect(viaWire(metricPointsFromWire, bytes)).toEqual(viaDecoder(messages.metricsRequest, metricPoints, bytes));
const sameLogs = (bytes: Uint8Array) => expect(viaWire(logRecordsFromWire, bytes)).toEqual(viaDecoder(messages.logsRequest, logRecords, bytes));

const encode = (name: string, value: Record<string, unknown>) => {
  const t = type(name);
  return t.encode(t.fromObject(value)).finish();
};
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));
/** A field holding already encoded bytes (a message, possibly several encodings concatenated: merged). */
const embed = (fieldNumber: number, bytes: Uint8Array) =>
  protobuf.Writer.create()
    .uint32((fieldNumber << 3) | 2)
    .bytes(bytes)
    .finish();

// ---- generated exports

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
// Around the edges of the safe integers (a number inside, a string outside) and of the 32-bit halves.
const safeEdges = fc.constantFrom(
  ...[2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 32n, 2n ** 32n - 1n, -1n, -(2n ** 32n)].flatMap((n) => [n, -n]).map(String),
);
// Keys the reader keeps (short, ASCII), and the others: not ASCII, and around its length limit (64 bytes).
const key = fc.oneof(
  fc.constantFrom('session.id', 'model', 'type', 'event.name', 'user.email', ''),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ minLength: 62, maxLength: 66 }),
);
const anyValue: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ value: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // Text the reader slices (ASCII, up to 256 bytes) and the rest: not ASCII, and around that limit.
    fc.record({
      stringValue: fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.string({ minLength: 254, maxLength: 258 }),
        fc.constantFrom('claude_code.user_prompt', ''),
      ),
    }),
    fc.record({ boolValue: fc.boolean() }),
    fc.record({ intValue: fc.oneof(i64, fc.integer().map(String), safeEdges) }),
    fc.record({ doubleValue: fc.oneof(fc.double(), fc.constantFrom(0, -0, 1.5)) }),
    fc.record({ bytesValue: fc.uint8Array({ maxLength: 6 }) }),
    fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 3 }) }) }),
    fc.record({ kvlistValue: fc.record({ values: fc.array(fc.record({ key, value: tie('value') }, { requiredKeys: ['key'] }), { maxLength: 3 }) }) }),
    fc.constant({}),
  ),
})).value;
const attributes = fc.array(fc.record({ key, value: anyValue }, { requiredKeys: ['key'] }), { maxLength: 4 });
const scope = fc.option(fc.record({ name: fc.string({ maxLength: 6 }), version: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }), { nil: undefined });
const resource = fc.option(fc.record({ attributes }), { nil: undefined });
const times = { startTimeUnixNano: u64, timeUnixNano: u64 };
const numberPoint = fc
  .record({ attributes, ...times, asDouble: fc.oneof(fc.double(), fc.constantFrom(0, 100, Number.NaN)), asInt: i64 }, { requiredKeys: [] })
  .map((p) => (p.asDouble !== undefined && p.asInt !== undefined ? { ...p, asInt: undefined } : p));
const sumPoint = fc.record({ attributes, ...times, count: u64, sum: fc.oneof(fc.double(), fc.constant(12)) }, { requiredKeys: [] });
const temporality = fc.constantFrom(0, 1, 2, 3, -1);
const metric = fc
  .record(
    {
      name: fc.oneof(fc.constantFrom('claude_code.token.usage', 'droid.tokens'), fc.string({ maxLength: 6 })),
      unit: fc.string({ maxLength: 2 }),
      data: fc.oneof(
        fc.record({
          sum: fc.record(
            { dataPoints: fc.array(numberPoint, { maxLength: 3 }), aggregationTemporality: temporality, isMonotonic: fc.boolean() },
            { requiredKeys: [] },
          ),
        }),
        fc.record({ gauge: fc.record({ dataPoints: fc.array(numberPoint, { maxLength: 3 }) }) }),
        fc.record({ histogram: fc.record({ dataPoints: fc.array(sumPoint, { maxLength: 3 }), aggregationTemporality: temporality }, { requiredKeys: [] }) }),
        fc.record({
          exponentialHistogram: fc.record({ dataPoints: fc.array(sumPoint, { maxLength: 3 }), aggregationTemporality: temporality }, { requiredKeys: [] }),
        }),
        fc.record({ summary: fc.record({ dataPoints: fc.array(sumPoint, { maxLength: 3 }) }) }),
        fc.constant({}),
      ),
    },
    { requiredKeys: ['data'] },
  )
  .map(({ data, ...m }) => ({ ...m, ...data }));
const metricsExport = fc.record({
  resourceMetrics: fc.array(
    fc.record(
      { resource, scopeMetrics: fc.array(fc.record({ scope, metrics: fc.array(metric, { maxLength: 3 }) }, { requiredKeys: [] }), { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
    { maxLength: 2 },
  ),
});
const logRecord = fc.record(
  {
    timeUnixNano: u64,
    observedTimeUnixNano: u64,
    severityNumber: fc.integer({ min: 0, max: 24 }),
    body: anyValue,
    attributes,
    eventName: fc.oneof(fc.constantFrom('claude_code.tool_result', ''), fc.string({ maxLength: 6 })),
    traceId: fc.uint8Array({ maxLength: 16 }),
  },
  { requiredKeys: [] },
);
const logsExport = fc.record({
  resourceLogs: fc.array(
    fc.record(
      { resource, scopeLogs: fc.array(fc.record({ scope, logRecords: fc.array(logRecord, { maxLength: 4 }) }, { requiredKeys: [] }), { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
    { maxLength: 2 },
  ),
});

describe('reading protobuf exports from the wire', () => {
  it('gives the records records.ts reads from the decoded message, for generated metrics exports', () => {
    fc.assert(
      fc.property(metricsExport, (body) => void sameMetrics(encode('ExportMetricsServiceRequest', body))),
      { numRuns: 300 },
    );
  });

  it('gives the records records.ts reads from the decoded message, for generated logs exports', () => {
    fc.assert(
      fc.property(logsExport, (body) => void sameLogs(encode('ExportLogsServiceRequest', body))),
      { numRuns: 300 },
    );
  });

  it('merges as protobuf does: two exports sent as one, and truncated or corrupted bytes fail alike', () => {
    fc.assert(
      fc.property(metricsExport, metricsExport, fc.nat(), fc.nat(255), (a, b, at, byte) => {
        const bytes = concat(encode('ExportMetricsServiceRequest', a), encode('ExportMetricsServiceRequest', b));
        sameMetrics(bytes);
        sameMetrics(bytes.subarray(0, at % (bytes.length + 1)));
        const corrupted = Uint8Array.from(bytes);
        if (corrupted.length > 0) corrupted[at % corrupted.length] = byte;
        sameMetrics(corrupted);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(logsExport, fc.nat(), fc.nat(255), (a, at, byte) => {
        const bytes = encode('ExportLogsServiceRequest', a);
        sameLogs(bytes.subarray(0, at % (bytes.length + 1)));
        const corrupted = Uint8Array.from(bytes);
        if (corrupted.length > 0) corrupted[at % corrupted.length] = byte;
        sameLogs(corrupted);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a oneof last member, merges a repeated message field and keeps a repeated scalar last value', () => {
    const kvBytes = (k: string, ...values: Record<string, unknown>[]) =>
      concat(encode('KeyValue', { key: k }), ...values.map((v) => embed(2, encode('AnyValue', v))));
    const point = concat(
      encode('NumberDataPoint', { asInt: '7', timeUnixNano: '5' }),
      encode('NumberDataPoint', { asDouble: 2.5, timeUnixNano: '9' }),
      embed(7, kvBytes('x', { stringValue: 's' }, { arrayValue: { values: [{ intValue: '1' }] } }, { arrayValue: { values: [{ boolValue: true }] } })),
      embed(7, kvBytes('y', { kvlistValue: { values: [{ key: 'a', value: { intValue: '1' } }] } }, { stringValue: 'later' })),
    );
    const metricBytes = concat(
      encode('Metric', { name: 'first', gauge: { dataPoints: [{ asInt: '1' }] } }),
      encode('Metric', { name: 'claude_code.token.usage' }),
      embed(7, concat(encode('Sum', { aggregationTemporality: 2, isMonotonic: true }), embed(1, point), encode('Sum', { aggregationTemporality: 1 }))),
      embed(7, encode('Sum', { dataPoints: [{ asDouble: 3 }] })),
    );
    const resourceMetrics = concat(
      embed(1, encode('Resource', { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] })),
      embed(
        2,
        concat(embed(1, encode('InstrumentationScope', { name: 'scope' })), embed(2, metricBytes), embed(1, encode('InstrumentationScope', { version: '1' }))),
      ),
      embed(
        1,
        encode('Resource', {
          attributes: [
            { key: 'service.name', value: { stringValue: 'b' } },
            { key: 'host', value: { boolValue: false } },
          ],
        }),
      ),
    );
    const bytes = embed(1, resourceMetrics);
    sameMetrics(bytes);
    const read = metricPointsFromWire(bytes);
    expect(read.points).toHaveLength(2);
    expect(read.points[0]).toMatchObject({
      resource: { 'service.name': 'b', host: false },
      scope: 'scope',
      metric: 'claude_code.token.usage',
      kind: 'sum',
      temporality: 'delta',
      monotonic: true,
      timeNs: 9n,
      value: 2.5,
      attrs: { x: [1, true], y: 'later' },
    });

    const log = concat(
      encode('LogRecord', { eventName: 'e', timeUnixNano: '3' }),
      // An explicit empty event name (encode leaves defaults out): the later value counts.
      protobuf.Writer.create()
        .uint32((12 << 3) | 2)
        .string('')
        .finish(),
      encode('LogRecord', { observedTimeUnixNano: '4' }),
      embed(5, encode('AnyValue', { arrayValue: { values: [{ stringValue: 'a' }] } })),
      embed(5, encode('AnyValue', { arrayValue: { values: [{ stringValue: 'b' }] } })),
    );
    const logs = embed(1, embed(2, embed(2, log)));
    sameLogs(logs);
    expect(logRecordsFromWire(logs)[0]).toMatchObject({ name: '', timeNs: 3n });
  });

  it('reads every key as protobufjs does, also past the keys it keeps and where two share a slot', () => {
    // 3,000 distinct keys, three times over: more than the reader keeps, so slots are shared and replaced.
    const logRecords = Array.from({ length: 9000 }, (_, i) => ({
      attributes: [
        { key: `k${i % 3000}`, value: { intValue: i } },
        { key: 'session.id', value: { stringValue: 's' } },
      ],
    }));
    const bytes = encode('ExportLogsServiceRequest', { resourceLogs: [{ scopeLogs: [{ logRecords }] }] });
    sameLogs(bytes);
    expect(logRecordsFromWire(bytes).map((r) => Object.keys(r.attrs))[4321]).toEqual(['k1321', 'session.id']);
  });

  it('reads every 64-bit time as protobufjs does, also when times come again among more than the reader keeps', () => {
    // Three nanosecond times (past 2^32, so none is a small bigint) in an order that repeats, reuses and replaces the kept ones.
    const at = [1_763_650_000_000_000_000n, 1_763_650_060_000_000_000n, 18_446_744_073_709_551_615n];
    const order = [0, 1, 0, 1, 2, 0, 2, 2, 1, 0, 1, 2];
    const dataPoints = order.map((t, i) => ({ startTimeUnixNano: String(at[order[(i + 5) % order.length]!]), timeUnixNano: String(at[t]), asDouble: i }));
    const bytes = encode('ExportMetricsServiceRequest', {
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', sum: { aggregationTemporality: 1, dataPoints } }] }] }],
    });
    sameMetrics(bytes);
    expect(metricPointsFromWire(bytes).points.map((p) => [p.startNs, p.timeNs])).toEqual(order.map((t, i) => [at[order[(i + 5) % order.length]!], at[t]]));
  });

  it('refuses what protobufjs refuses: invalid UTF-8, nesting past the limit, a wrong length', () => {
    const badString = embed(
      1,
      embed(
        2,
        embed(
          2,
          concat(
            protobuf.Writer.create()
              .uint32((12 << 3) | 2)
              .uint32(2)
              .finish(),
            Uint8Array.of(0xc3, 0x28),
          ),
        ),
      ),
    );
    sameLogs(badString);
    expect(() => logRecordsFromWire(badString)).toThrow();
    // The same in an attribute's string value (the ASCII before it read as any value is).
    const badValue = embed(
      1,
      embed(
        2,
        embed(
          2,
          embed(
            6,
            embed(
              2,
              concat(
                protobuf.Writer.create()
                  .uint32((1 << 3) | 2)
                  .uint32(4)
                  .finish(),
                Uint8Array.of(0x61, 0x62, 0xc3, 0x28),
              ),
            ),
          ),
        ),
      ),
    );
    sameLogs(badValue);
    expect(() => logRecordsFromWire(badValue)).toThrow();
    // The same in an attribute's key.
    const badKey = embed(
      1,
      embed(
        2,
        embed(
          2,
          embed(
            6,
            concat(
              protobuf.Writer.create()
                .uint32((1 << 3) | 2)
                .uint32(2)
                .finish(),
              Uint8Array.of(0xc3, 0x28),
            ),
          ),
        ),
      ),
    );
    sameLogs(badKey);
    expect(() => logRecordsFromWire(badKey)).toThrow();
    // A key whose length is not a valid length varint (five bytes, the last still continued), as a corrupted export had it.
    const badKeyLength = embed(1, embed(1, embed(1, Uint8Array.of((1 << 3) | 2, 0x80, 0xf0, 0x90, 0x80, 0x80))));
    sameMetrics(badKeyLength);
    expect(() => metricPointsFromWire(badKeyLength)).toThrow('invalid length encoding');

    let nested = encode('AnyValue', { stringValue: 'deep' });
    for (let i = 0; i < 120; i++) nested = embed(5, embed(1, nested));
    const deep = embed(1, embed(2, embed(2, embed(5, nested))));
    sameLogs(deep);
    expect(() => logRecordsFromWire(deep)).toThrow(/max depth/);

    const short = Uint8Array.of(0x0a, 0x05, 0x12, 0x01);
    sameLogs(short);
    sameMetrics(short);
    expect(() => metricPointsFromWire(short)).toThrow(RangeError);
  });
});
