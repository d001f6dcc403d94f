import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { metrics, sum, YESTERDAY } from '../otlp/otlp-json.js';

// The key of a managed install sits in files every user of a laptop can read. Narrowed to the
// scopes the hooks and exporters need, it sends telemetry, records sessions and reads what the
// usage-limit hook decides with, and nothing else: no limit changes, no analytics, no new keys.

const MANAGED = ['allowance:read', 'sessions:attribute', 'telemetry:write'];
/** What the managed hooks and exporters call, and `GET /me` (every credential may ask who it is). */
const ADMITTED = new Set([
  'limits.allowance',
  'limits.getEnforcement',
  'telemetry.ingest',
  'telemetry.sessionRepository',
  'otlp.metrics',
  'otlp.logs',
  'otlp.traces',
  'identity.me',
]);

let t: TestApp;
let org: Org;
let mia: { id: string; email: string; key: string };
let serviceAccountId: string;
let scopedKey: string;
let fullKey: string;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('scoped');
  mia = await t.addUser(org, 'member', 'mia@scoped.test');
  const account = await t.request<{ id: string }>('POST', '/api/v0/organization/service-accounts', {
    key: org.ownerKey,
    body: { name: 'mdm', role: 'manager' },
  });
  serviceAccountId = account.body.id;
  const scoped = await t.request<{ key: string; scopes: string[] }>('POST', '/api/v0/api-keys', {
    key: org.ownerKey,
    body: { principalId: serviceAccountId, name: 'laptops', scopes: ['telemetry:write', 'allowance:read', 'sessions:attribute'] },
  });
  expect(scoped.status).toBe(201);
  expect(scoped.body.scopes).toEqual(MANAGED);
  scopedKey = scoped.body.key;
  fullKey = (await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: serviceAccountId } })).body.key;
  await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 1_000_000 } });
});
afterAll(() => t?.close());

describe('a key with only the managed scopes', () => {
  it('answers 403 on every operation that needs a credential, but the ones the hooks and exporters call', async () => {
    const spec = JSON.parse(readFileSync('openapi.json', 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
    const uuid = '00000000-0000-4000-8000-000000000000';
    const swept: string[] = [];
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (ADMITTED.has(op.operationId)) continue;
        const url = path.replaceAll(/\{[^}]+\}/g, uuid);
        const m = method.toUpperCase() as 'GET';
        const body = m === 'GET' || m === 'DELETE' ? undefined : {};
        if ((await t.request(m, url, { body })).status !== 401) continue;
        const res = await t.request(m, url, { key: scopedKey, body });
        expect({ op: op.operationId, status: res.status }).toEqual({ op: op.operationId, status: 403 });
        expectErrorObject(res, 403);
        swept.push(op.operationId);
      }
    }
    // The sweep reached what the key must never do: change limits, read analytics and people, make keys.
    expect(swept).toEqual(
      expect.arrayContaining([
        'limits.setGlobal',
        'limits.setUsers',
        'limits.setEnforcement',
        'analytics.users',
        'members.list',
        'apiKeys.create',
        'usage.daily',
      ]),
    );
    expect(swept.length).toBeGreaterThan(60);
    const refused = await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: scopedKey, body: { limit: 1 } });
    expect(expectErrorObject(refused, 403).detail).toContain('full role');
    // The same service account's full key may (its role is manager): the scope, not the role, refused.
    expect((await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: fullKey, body: { limit: 1_000_000 } })).status).toBe(200);
  });

  it('sends telemetry and OTLP exports for a person, records their session, and says who it is', async () => {
    const events = [{ id: `ev-${Date.now()}`, type: 'git_commit', timestamp: new Date().toISOString(), sessionId: 's-mia', client: 'terminal-ui' }];
    expect((await t.request('POST', '/api/v1/telemetry/events', { key: scopedKey, body: { events } })).status).toBe(202);
    const exported = await t.request('POST', '/v1/metrics', {
      key: scopedKey,
      body: metrics({ 'service.name': 'claude-code', 'user.email': mia.email }, [
        sum('claude_code.token.usage', [{ attrs: { 'session.id': 's-mia', type: 'input', model: 'claude-sonnet-4-5' }, value: 1000 }]),
      ]),
    });
    expect(exported).toMatchObject({ status: 200, body: {} });
    const users = await t.request<{ data: { user_email: string; input_tokens?: number }[] }>(
      'GET',
      `/api/v1/analytics/users?startDate=${YESTERDAY}&endDate=${YESTERDAY}`,
      { key: org.ownerKey },
    );
    expect(users.body.data.map((r) => r.user_email)).toContain(mia.email);
    const recorded = await t.request('PUT', `/api/v1/telemetry/sessions/s-mia/repository?email=${encodeURIComponent(mia.email)}`, {
      key: scopedKey,
      body: { url: 'https://github.com/acme/app.git', branch: 'main' },
    });
    expect(recorded.status).toBe(204);
    const me = await t.request<{ kind: string; scopes: string[] }>('GET', '/api/v0/me', { key: scopedKey });
    expect(me.body).toMatchObject({ kind: 'service_account', scopes: MANAGED });
    expect((await t.request('GET', '/api/v0/organization/usage/enforcement', { key: scopedKey })).status).toBe(200);
  });

  it("reads a person's allowance by email with only what the guard decides with", async () => {
    const scoped = await t.request<Record<string, unknown>>('GET', `/api/v0/usage/allowance?email=${encodeURIComponent(mia.email)}`, { key: scopedKey });
    expect(scoped.status).toBe(200);
    expect(Object.keys(scoped.body).sort()).toEqual(['enforcement', 'limit', 'periodEnd', 'periodStart', 'remaining', 'source', 'used']);
    expect(scoped.body).toMatchObject({ limit: 1_000_000, source: 'global' });
    // A full key of the same account still gets the whole answer (budgets, forecasts).
    const full = await t.request<Record<string, unknown>>('GET', `/api/v0/usage/allowance?email=${encodeURIComponent(mia.email)}`, { key: fullKey });
    expect(full.body).toHaveProperty('budgets');
    expect(full.body).toHaveProperty('forecast');
  });
});

describe('creating a scoped key', () => {
  it('refuses full beside a narrow scope and an unknown scope; a key made without scopes is full', async () => {
    const mixed = await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { scopes: ['full', 'telemetry:write'] } });
    expect(expectErrorObject(mixed, 400).detail).toContain('full');
    expect((await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { scopes: ['analytics:read'] } })).status).toBe(400);
    const plain = await t.request<{ scopes: string[] }>('POST', '/api/v0/api-keys', { key: mia.key, body: {} });
    expect(plain.body.scopes).toEqual(['full']);
    const listed = await t.request<{ apiKeys: { principalId: string; scopes: string[] }[] }>('GET', `/api/v0/api-keys?principalId=${serviceAccountId}`, {
      key: org.ownerKey,
    });
    expect(listed.body.apiKeys.map((k) => k.scopes).sort()).toEqual([MANAGED, ['full']]);
  });

  it('a scoped key cannot make itself a wider key', async () => {
    const res = await t.request('POST', '/api/v0/api-keys', { key: scopedKey, body: { principalId: serviceAccountId } });
    expectErrorObject(res, 403);
  });
});
