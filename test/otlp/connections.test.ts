import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { expectErrorObject, TestApp } from '../helpers/test-app.js';
import { logs, metrics, spans, sum } from './otlp-json.js';

// GET /api/v0/usage/connections: when each person's records last arrived from each agent client
// (orgctl connect --status), noted once per export and at most once a minute.

const clock = new TestClock(Date.now());
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({}, { clock });
});
afterAll(async () => {
  await t?.close();
});

type Connections = { clients: { client: string; lastExportAt: string }[] };
const CONNECTIONS = '/api/v0/usage/connections';

describe('connections', () => {
  it("notes per person and client when their records arrived, by the resource's service.name, to the minute", async () => {
    const org = await t.createOrg('conn');
    const mia = await t.addUser(org, 'member');
    const ned = await t.addUser(org, 'member');
    expect((await t.request<Connections>('GET', CONNECTIONS, { key: mia.key })).body).toEqual({ clients: [] });
    expectErrorObject(await t.request('GET', CONNECTIONS), 401);

    const first = clock.now().toISOString();
    const prompt = { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 1, prompt_length: 3 } };
    expect((await t.request('POST', '/v1/logs', { key: mia.key, body: logs({ 'service.name': 'claude-code' }, [prompt]) })).status).toBe(200);
    const droid = metrics({ 'service.name': 'droid' }, [sum('droid.session.count', [{ attrs: { 'session.id': 'd' }, value: 1 }])]);
    expect((await t.request('POST', '/v1/metrics', { key: mia.key, body: droid })).status).toBe(200);
    expect(
      (await t.request('POST', '/v1/traces', { key: ned.key, body: spans({ 'service.name': 'droid' }, [{ name: 'droid.tool.call', attrs: {} }]) })).status,
    ).toBe(200);
    // A service no agent client is notes nothing.
    expect((await t.request('POST', '/v1/logs', { key: mia.key, body: logs({ 'service.name': 'my-app' }, [{ name: 'x', attrs: {} }]) })).status).toBe(200);

    const ofMia = async () => (await t.request<Connections>('GET', CONNECTIONS, { key: mia.key })).body.clients;
    expect(await ofMia()).toEqual([
      { client: 'claude-code', lastExportAt: first },
      { client: 'droid', lastExportAt: first },
    ]);
    expect((await t.request<Connections>('GET', CONNECTIONS, { key: ned.key })).body.clients).toEqual([{ client: 'droid', lastExportAt: first }]);

    // Within the minute the row stays; after it, it moves.
    clock.advance(30_000);
    await t.request('POST', '/v1/logs', {
      key: mia.key,
      body: logs({ 'service.name': 'claude-code' }, [{ ...prompt, attrs: { ...prompt.attrs, 'event.sequence': 2 } }]),
    });
    expect((await ofMia())[0]!.lastExportAt).toBe(first);
    clock.advance(60_000);
    await t.request('POST', '/v1/logs', {
      key: mia.key,
      body: logs({ 'service.name': 'claude-code' }, [{ ...prompt, attrs: { ...prompt.attrs, 'event.sequence': 3 } }]),
    });
    expect((await ofMia())[0]).toEqual({ client: 'claude-code', lastExportAt: clock.now().toISOString() });
  });

  it("an organization-wide key's records note the person user.email names, not the key's holder", async () => {
    const org = await t.createOrg('conn-wide');
    const dev = await t.addUser(org, 'member');
    const body = logs({ 'service.name': 'codex', 'user.email': dev.email }, [{ name: 'codex.user_prompt', attrs: { 'conversation.id': 'c1' } }]);
    expect((await t.request('POST', '/v1/logs', { key: org.ownerKey, body })).status).toBe(200);
    expect((await t.request<Connections>('GET', CONNECTIONS, { key: dev.key })).body.clients.map((c) => c.client)).toEqual(['codex']);
    expect((await t.request<Connections>('GET', CONNECTIONS, { key: org.ownerKey })).body.clients).toEqual([]);
  });
});
