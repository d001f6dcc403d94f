import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logId, streamKey, streamSetKey } from '../../src/otlp/mappings/index.js';
import { eventId, ID_PREFIX, keyOfParts, keyOfPrefix, originId, originPrefix, originTail, textsId } from '../../src/otlp/mappings/native.js';
import { decodeMessage, decodeToPlain, messages } from '../../src/otlp/proto.js';
import { logRecords, metricPoints, spans } from '../../src/otlp/records.js';
import { histogram, logs, metrics, spans as spanList, sum, YESTERDAY_MS } from './otlp-json.js';

/** The id as the first release computed it: stored events carry it, so it must never change. */
const firstReleaseId = (key: unknown) => `otlp:${createHash('sha256').update(JSON.stringify(key)).digest('base64url').slice(0, 32)}`;

const resource = { 'service.name': 'claude-code', 'service.version': '2.0.1', 'os.type': 'linux', 'host.arch': 'x64' };

describe('record ids', () => {
  it('eventId is the id the first release stored for the same key', () => {
    for (const key of [
      ['claude_code', 's-1', 'claude_code.user_prompt', '7', null],
      ['droid-session', 'ü-"quoted"\n'],
      ['cumulative', 'otlp:abc', '1700000000000000000'],
    ]) {
      expect(eventId(key)).toBe(firstReleaseId(key));
    }
  });

  it('textsId, written without JSON.stringify of the array, is eventId of the same texts and nulls', () => {
    // Any UTF-16 (lone surrogates, controls, quotes, backslashes) and the plain texts clients send.
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u001f', '\u007f', '\ud800', '\udc00', '\u2028', 'é'), maxLength: 8 }),
      fc.uuid(),
    );
    const orNull = fc.option(text, { nil: null });
    fc.assert(
      fc.property(text, text, text, orNull, orNull, (a, b, c, d, e) => {
        expect(textsId(a, b, c, d, e)).toBe(firstReleaseId([a, b, c, d, e]));
      }),
      { numRuns: 500 },
    );
    expect(textsId('claude_code', 's-1', 'claude_code.user_prompt', '7', null)).toBe(
      firstReleaseId(['claude_code', 's-1', 'claude_code.user_prompt', '7', null]),
    );
  });

  it('originId equals eventId of the same key with the resource in second place', () => {
    const origin = { resource, resourceJson: JSON.stringify(resource), scope: 'com.anthropic.claude_code' };
    const attrs = { 'session.id': 's-1', nested: { a: [1, 'two', null] }, big: '18446744073709551615' };
    expect(originId('point', origin, origin.scope, 'claude_code.token.usage', attrs, '1', '2')).toBe(
      firstReleaseId(['point', resource, origin.scope, 'claude_code.token.usage', attrs, '1', '2']),
    );
    expect(originId('log', { ...origin, resource: {}, resourceJson: '{}' }, '', 'x', {}, '0')).toBe(firstReleaseId(['log', {}, '', 'x', {}, '0']));
    expect(originId('stream', origin, 'scope', 'm', attrs, undefined)).toBe(firstReleaseId(['stream', resource, 'scope', 'm', attrs, undefined]));
  });

  it('originId is the same when its first parts are serialized once for several records (originPrefix, keyOfPrefix, keyOfParts)', () => {
    const origin = { resource, resourceJson: JSON.stringify(resource), scope: 'scope "quoted"' };
    const prefix = originPrefix('point', origin, origin.scope, 'claude_code.token.usage');
    // The export works with keys: an id without its prefix.
    const idOfPrefix = (start: string, ...rest: unknown[]) => ID_PREFIX + keyOfPrefix(start, ...rest);
    const idOfParts = (start: string, part: unknown, tail: string) => ID_PREFIX + keyOfParts(start, part, tail);
    for (const attrs of [{}, { 'session.id': 's-1', model: 'm' }, { nested: { a: [1, null] } }]) {
      expect(idOfPrefix(prefix, attrs, '1', '2')).toBe(originId('point', origin, origin.scope, 'claude_code.token.usage', attrs, '1', '2'));
      expect(idOfParts(prefix, attrs, originTail('1', '2'))).toBe(originId('point', origin, origin.scope, 'claude_code.token.usage', attrs, '1', '2'));
    }
    expect(idOfPrefix(originPrefix('stream', origin), undefined)).toBe(firstReleaseId(['stream', resource, undefined]));
    // A delta point's collection (its group's key): the collection's start for the metric, with the point's start and time.
    const collection = originPrefix('collection', origin, origin.scope, 'claude_code.token.usage');
    expect(idOfPrefix(collection, '1', '2')).toBe(firstReleaseId(['collection', resource, origin.scope, 'claude_code.token.usage', '1', '2']));
    // A cumulative point's stream key (streamKey) from its metric's serialized start.
    for (const attrs of [{}, { 'session.id': 's-1', model: 'm' }])
      expect(idOfParts(originPrefix('stream', origin, origin.scope, 'm'), attrs, '')).toBe(firstReleaseId(['stream', resource, origin.scope, 'm', attrs]));
    // Its set's key (streamSetKey) from the same start.
    expect(idOfPrefix(originPrefix('stream', origin, origin.scope, 'm'))).toBe(firstReleaseId(['stream', resource, origin.scope, 'm']));
  });
});

describe('reading a decoded protobuf export', () => {
  // The protobuf path reads protobufjs's decoded message as it is; the JSON path, plain data.
  // Both must give the same records, hence the same ids, whatever the encoding of a retry.
  const both = (type: keyof typeof messages, body: Record<string, unknown>) => {
    const bytes = messages[type].encode(messages[type].fromObject(body)).finish();
    return [decodeMessage(messages[type], bytes), decodeToPlain(messages[type], bytes)] as const;
  };

  it('gives the same metric points as the JSON mapping, 64-bit values and absent fields included', () => {
    const body = metrics(resource, [
      sum('claude_code.token.usage', [{ attrs: { type: 'input', model: 'm', n: 12, big: 2 ** 60, ok: true, ratio: 0.5 }, value: 1000 }], { asInt: true }),
      sum(
        'claude_code.commit.count',
        [
          { attrs: {}, value: 0 },
          { attrs: { a: '' }, value: 2.5, startMs: YESTERDAY_MS - 5 },
        ],
        { temporality: 2 },
      ),
      histogram('gen_ai.client.token.usage', [{ attrs: { 'gen_ai.token.type': 'input' }, sum: 0, count: 0 }]),
      { name: 'gauge', gauge: { dataPoints: [{ timeUnixNano: '18446744073709551615', asInt: '-9223372036854775808' }] } },
    ]);
    const [message, plain] = both('metricsRequest', body);
    const read = metricPoints(message);
    expect(read).toEqual(metricPoints(plain));
    expect(read.points.map(streamKey)).toEqual(metricPoints(plain).points.map(streamKey));
    expect(read.points.map(streamSetKey)).toEqual(metricPoints(plain).points.map(streamSetKey));
    expect(read.points.at(-1)).toMatchObject({ timeNs: 18446744073709551615n, value: -9223372036854775808 });
  });

  it('gives the same log records and spans as the JSON mapping, bytes and nested values included', () => {
    const body = logs(resource, [
      { name: 'claude_code.tool_result', attrs: { tool_name: 'Read', 'session.id': 's' } },
      { name: 'other.event', attrs: {} },
    ]) as unknown as { resourceLogs: [{ scopeLogs: [{ logRecords: Record<string, unknown>[] }] }] };
    const records = body.resourceLogs[0].scopeLogs[0].logRecords;
    records[1]!.attributes = [
      { key: 'bytes', value: { bytesValue: 'AAEC/w==' } },
      { key: 'list', value: { arrayValue: { values: [{ intValue: '-5' }, { kvlistValue: { values: [{ key: 'k', value: { doubleValue: 1.5 } }] } }, {}] } } },
      { key: 'empty', value: { stringValue: '' } },
      { key: 'false', value: { boolValue: false } },
    ];
    records[1]!.observedTimeUnixNano = '1700000000000000123';
    delete records[1]!.timeUnixNano;
    const [message, plain] = both('logsRequest', body);
    expect(logRecords(message)).toEqual(logRecords(plain));
    expect(logRecords(message)[1]).toMatchObject({
      timeNs: 1700000000000000123n,
      attrs: { bytes: 'AAEC/w==', list: [-5, { k: 1.5 }, null], empty: '', false: false },
    });
    expect(logRecords(message).map((r) => logId(r, r.name))).toEqual(logRecords(plain).map((r) => logId(r, r.name)));

    const [spanMessage, spanPlain] = both('tracesRequest', spanList(resource, [{ name: 'droid.message.user', attrs: { 'session.id': 's' } }]));
    expect(spans(spanMessage)).toEqual(spans(spanPlain));
  });
});
