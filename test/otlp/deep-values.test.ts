import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToPlain, messages } from '../../src/otlp/proto.js';
import { MAX_VALUE_DEPTH } from '../../src/otlp/records.js';
import { TestApp } from '../helpers/test-app.js';
import { logs } from './otlp-json.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const LEVELS = 5000;
const claude = { 'service.name': 'claude-code' };

/** A log export whose one record has the attribute `deep`: `levels` kvlistValues, one inside the other, around a string. */
function deepJson(levels: number): string {
  const body = JSON.stringify(logs(claude, [{ name: 'claude_code.user_prompt', attrs: { 'session.id': 's', deep: 'PLACEHOLDER' } }]));
  const open = '{"kvlistValue":{"values":[{"key":"k","value":';
  const inner = `${open.repeat(levels)}{"stringValue":"bottom"}${'}]}}'.repeat(levels)}`;
  return body.replace('{"stringValue":"PLACEHOLDER"}', inner);
}

const tagAndLength = (fieldNumber: number, length: number) =>
  protobuf.Writer.create()
    .uint32((fieldNumber << 3) | 2)
    .uint32(length)
    .finish();
const embed = (fieldNumber: number, bytes: Uint8Array) => Buffer.concat([tagAndLength(fieldNumber, bytes.length), bytes]);
const concat = (...parts: Uint8Array[]) => Buffer.concat(parts);
const keyOf = (key: string) =>
  protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .string(key)
    .finish();

/** The same export in protobuf: ExportLogsServiceRequest > ResourceLogs > ScopeLogs > LogRecord > attributes (KeyValue). */
function deepProtobuf(levels: number): Buffer {
  // AnyValue.kvlist_value (6) > KeyValueList.values (1) > KeyValue {key (1), value (2)}
  let value: Uint8Array = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .string('bottom')
    .finish();
  for (let i = 0; i < levels; i++) value = embed(6, embed(1, concat(keyOf('k'), embed(2, value))));
  const attribute = embed(6, concat(keyOf('deep'), embed(2, value)));
  return Buffer.from(embed(1, embed(2, embed(2, attribute))));
}

const send = (payload: Buffer | string, contentType: string, key: string) =>
  t.app.inject({ method: 'POST', url: '/v1/logs', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload });

describe('OTLP values nested too deep', () => {
  it(`refuses ${LEVELS} levels of kvlistValue in JSON with 400, in OTLP's JSON error, and stores nothing`, async () => {
    const org = await t.createOrg('deep-json');
    const res = await send(deepJson(LEVELS), 'application/json', org.ownerKey);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 3, detail: expect.stringContaining(`nested more than ${MAX_VALUE_DEPTH} levels`) });
    const stored = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM otlp_seen WHERE org_id = $1`, [org.orgId]);
    expect(stored[0]!.n).toBe(0);
  });

  it(`refuses ${LEVELS} levels of kvlistValue in protobuf with 400 and a google.rpc.Status`, async () => {
    const org = await t.createOrg('deep-protobuf');
    const res = await send(deepProtobuf(LEVELS), 'application/x-protobuf', org.ownerKey);
    expect(res.statusCode).toBe(400);
    expect(decodeToPlain(messages.status, res.rawPayload)).toMatchObject({ code: 3, message: expect.stringContaining('max depth') });
  });

  it(`reads a value nested ${MAX_VALUE_DEPTH} levels deep in JSON; one more is 400`, async () => {
    const org = await t.createOrg('deep-limit');
    expect((await send(deepJson(MAX_VALUE_DEPTH), 'application/json', org.ownerKey)).statusCode).toBe(200);
    expect((await send(deepJson(MAX_VALUE_DEPTH + 1), 'application/json', org.ownerKey)).statusCode).toBe(400);
  });
});
