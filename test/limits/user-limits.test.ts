import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const USERS = '/api/v0/organization/usage/limits/users';
const GLOBAL = '/api/v0/organization/usage/limits/global';
const ALLOWANCE = '/api/v0/usage/allowance';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('overrides-org');
});
afterAll(() => t?.close());

describe('individual overrides', () => {
  it('sets overrides, reports unknown and repeated emails, and lists them with the global limit', async () => {
    const a = await t.addUser(org, 'member', 'alice@example.com');
    await t.addUser(org, 'member', 'bob@example.com');
    await t.request('PUT', GLOBAL, { key: org.ownerKey, body: { limit: 2_000_000 } });
    const res = await t.request('PUT', USERS, {
      key: org.ownerKey,
      body: {
        users: [
          { email: 'Alice@Example.com', limit: 5_000_000 },
          { email: 'bob@example.com', limit: 1_000_000 },
          { email: 'ghost@example.com', limit: 3_000_000 },
          { email: 'alice@example.com', limit: 9_000_000 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      updated: [
        { email: 'alice@example.com', limit: 5_000_000 },
        { email: 'bob@example.com', limit: 1_000_000 },
      ],
      errors: [
        { email: 'alice@example.com', error: 'The same email appears more than once in this request.' },
        { email: 'ghost@example.com', error: 'No user with this email in the organization.' },
      ],
    });
    const list = await t.request('GET', USERS, { key: a.key });
    expect(list.body).toEqual({
      global: 2_000_000,
      users: [
        { email: 'alice@example.com', limit: 5_000_000 },
        { email: 'bob@example.com', limit: 1_000_000 },
      ],
    });
  });

  it('null removes an override and the user falls back to the global limit', async () => {
    const c = await t.addUser(org, 'member', 'carol@example.com');
    await t.request('PUT', GLOBAL, { key: org.ownerKey, body: { limit: 2_000_000 } });
    await t.request('PUT', USERS, { key: org.ownerKey, body: { users: [{ email: c.email, limit: 6_000_000 }] } });
    expect((await t.request('GET', ALLOWANCE, { key: c.key })).body).toMatchObject({ limit: 6_000_000, source: 'individual' });
    await t.request('PUT', USERS, { key: org.ownerKey, body: { users: [{ email: c.email, limit: null }] } });
    expect((await t.request('GET', ALLOWANCE, { key: c.key })).body).toMatchObject({ limit: 2_000_000, source: 'global' });
    const log = await t.request<{ entries: Record<string, unknown>[] }>('GET', '/api/v0/organization/usage/limits/audit', { key: org.ownerKey });
    expect(log.body.entries[0]).toMatchObject({ scope: 'user', targetEmail: c.email, oldLimit: 6_000_000, newLimit: null });
  });

  it('rejects the whole request when one entry is invalid, storing nothing', async () => {
    const d = await t.addUser(org, 'member', 'dave@example.com');
    const res = await t.request('PUT', USERS, {
      key: org.ownerKey,
      body: {
        users: [
          { email: d.email, limit: 4_000_000 },
          { email: 'eve@example.com', limit: 12 },
        ],
      },
    });
    const err = expectErrorObject(res, 400);
    expect(err.metadata?.errors).toEqual([{ path: '/users/1/limit', message: 'must be >= 1000000 or null' }]);
    const list = await t.request<{ users: { email: string }[] }>('GET', USERS, { key: org.ownerKey });
    expect(list.body.users.map((u) => u.email)).not.toContain(d.email);
  });

  it('400 for an empty list, more than 100 entries, or a malformed email; 403 for a member', async () => {
    expectErrorObject(await t.request('PUT', USERS, { key: org.ownerKey, body: { users: [] } }), 400);
    const many = Array.from({ length: 101 }, (_, i) => ({ email: `u${i}@example.com`, limit: 1_000_000 }));
    expectErrorObject(await t.request('PUT', USERS, { key: org.ownerKey, body: { users: many } }), 400);
    expectErrorObject(await t.request('PUT', USERS, { key: org.ownerKey, body: { users: [{ email: 'not-an-email', limit: 1_000_000 }] } }), 400);
    const m = await t.addUser(org, 'member');
    expectErrorObject(await t.request('PUT', USERS, { key: m.key, body: { users: [{ email: m.email, limit: 1_000_000 }] } }), 403);
  });
});

describe('allowance', () => {
  it('reports the current UTC month, no limit as source none, and zero usage until telemetry is ingested', async () => {
    const fresh = await t.createOrg('fresh-org');
    const res = await t.request('GET', ALLOWANCE, { key: fresh.ownerKey });
    const now = new Date();
    const nothing =
      now.getUTCDate() === 1 ? { dailyRate: null, projectedUsed: null, limitReachedOn: null } : { dailyRate: 0, projectedUsed: 0, limitReachedOn: null };
    expect(res.body).toEqual({
      limit: null,
      source: 'none',
      used: 0,
      remaining: null,
      budgets: [],
      periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      enforcement: { mode: 'block', thresholds: [80, 95], unreachable: 'open' },
      // No usage: a rate of 0 (none on the 1st of a month, before a complete day); test/limits/forecast.test.ts has the rest.
      forecast: nothing,
      organization: { used: 0, forecast: nothing },
    });
  });

  it('a guest reads its own allowance under the global limit', async () => {
    const g = await t.addUser(org, 'guest');
    await t.request('PUT', GLOBAL, { key: org.ownerKey, body: { limit: 3_000_000 } });
    expect((await t.request('GET', ALLOWANCE, { key: g.key })).body).toMatchObject({ limit: 3_000_000, source: 'global', used: 0, remaining: 3_000_000 });
  });
});
