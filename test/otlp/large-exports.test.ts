import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECODE_IN_THREAD_BYTES } from '../../src/otlp/decoder.js';
import { encode, messages } from '../../src/otlp/proto.js';
import { TestApp } from '../helpers/test-app.js';
import { logs, metrics, sum, YESTERDAY_MS } from './otlp-json.js';
import { yesterdayRow } from './reports.js';

/**
 * Bodies of DECODE_IN_THREAD_BYTES and more are decoded in a thread (docs/otlp.md, Transport):
 * what they count must be what the same records count when sent in small exports, decoded on
 * the event loop, and what cannot be read must be refused the same way.
 */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const claude = { 'service.name': 'claude-code', 'host.name': 'a-resource-long-enough-to-matter-'.repeat(4) };
const N = 4000;
// 40 sessions of 100 prompts, each in its own minute of yesterday morning.
const prompts = Array.from({ length: N }, (_, i) => ({
  name: 'claude_code.user_prompt',
  attrs: { 'session.id': `session-${i % 40}`, 'event.sequence': i, prompt_length: 12, note: `prompt number ${i} of a large export` },
  timeMs: YESTERDAY_MS - Math.floor(i / 40) * 60_000,
}));

const send = (key: string, signal: string, payload: Buffer | string, type: string) =>
  t.app.inject({ method: 'POST', url: `/v1/${signal}`, headers: { authorization: `Bearer ${key}`, 'content-type': type }, payload });
const asJson = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('large exports, decoded in a thread', () => {
  it('a large JSON export counts what its records sent in small exports count, and each record once', async () => {
    const org = await t.createOrg('large-json');
    const whole = asJson(logs(claude, prompts));
    expect(whole.length).toBeGreaterThan(DECODE_IN_THREAD_BYTES);
    expect((await send(org.ownerKey, 'logs', whole, 'application/json')).statusCode).toBe(200);
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: N });
    // The same records again, 100 to an export (each decoded on the event loop): record ids made
    // in the thread and on the loop agree, so nothing counts twice.
    for (let i = 0; i < N; i += 500) {
      const part = asJson(logs(claude, prompts.slice(i, i + 500)));
      expect(part.length).toBeLessThan(DECODE_IN_THREAD_BYTES);
      expect((await send(org.ownerKey, 'logs', part, 'application/json')).statusCode).toBe(200);
    }
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: N });
  });

  it('large protobuf logs and metrics count exactly, and cumulative streams read in a thread are the streams read on the loop', async () => {
    const org = await t.createOrg('large-protobuf');
    const logsBody = encode(messages.logsRequest, logs(claude, prompts) as never);
    const points = Array.from({ length: N }, (_, i) => ({
      attrs: { 'session.id': `session-${i}`, type: 'input', model: 'claude-sonnet-4-5', note: 'a point of a large export' },
      value: i + 1,
    }));
    const cumulative = (list: typeof points) => metrics(claude, [sum('claude_code.token.usage', list, { temporality: 2 })]);
    const metricsBody = encode(messages.metricsRequest, cumulative(points) as never);
    for (const body of [logsBody, metricsBody]) expect(body.length).toBeGreaterThan(DECODE_IN_THREAD_BYTES);
    expect((await send(org.ownerKey, 'logs', logsBody, 'application/x-protobuf')).statusCode).toBe(200);
    expect((await send(org.ownerKey, 'metrics', metricsBody, 'application/x-protobuf')).statusCode).toBe(200);
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: N });
    expect(await yesterdayRow(t, org, 'tokens')).toMatchObject({ input_tokens: (N * (N + 1)) / 2 });
    // The same cumulative points again in small exports decoded on the loop: the same streams at
    // the same values, so they add nothing.
    for (let i = 0; i < N; i += 500) {
      const part = asJson(cumulative(points.slice(i, i + 500)));
      expect(part.length).toBeLessThan(DECODE_IN_THREAD_BYTES);
      expect((await send(org.ownerKey, 'metrics', part, 'application/json')).statusCode).toBe(200);
    }
    expect(await yesterdayRow(t, org, 'tokens')).toMatchObject({ input_tokens: (N * (N + 1)) / 2 });
  });

  it('a large body that cannot be read is refused with the same 400 as a small one, and the service goes on decoding', async () => {
    const org = await t.createOrg('large-bad');
    const size = DECODE_IN_THREAD_BYTES + 1024;
    const notProtobuf = await send(org.ownerKey, 'logs', randomBytes(size), 'application/x-protobuf');
    expect(notProtobuf.statusCode).toBe(400);
    expect(notProtobuf.headers['content-type']).toBe('application/x-protobuf');
    const notJson = await send(org.ownerKey, 'logs', '{' + 'x'.repeat(size), 'application/json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ detail: 'The body is not JSON.', code: 3 });
    const deep = `{"resourceLogs":[{"resource":{"attributes":[{"key":"k","value":${'{"kvlistValue":{"values":[{"key":"k","value":'.repeat(40)}{"stringValue":"v"}${'}]}}'.repeat(40)}}]}}]}`;
    const deepPadded = deep + ' '.repeat(size);
    const tooDeep = await send(org.ownerKey, 'logs', deepPadded, 'application/json');
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().detail).toMatch(/nested/);
    const fine = asJson(logs(claude, prompts));
    expect((await send(org.ownerKey, 'logs', fine, 'application/json')).statusCode).toBe(200);
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: N });
  });
});
