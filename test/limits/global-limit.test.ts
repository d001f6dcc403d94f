import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/v0/organization/usage/limits/global';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('limits-org');
});
afterAll(() => t?.close());

const currentLimit = async () => (await t.request<{ limit: number | null }>('GET', PATH, { key: org.ownerKey })).body.limit;

describe('PUT the global limit', () => {
  it('sets, reads back and removes the limit', async () => {
    const set = await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: 5_000_000 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ limit: 5_000_000 });
    expect(await currentLimit()).toBe(5_000_000);
    const removed = await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: null } });
    expect(removed.body).toEqual({ limit: null });
    expect(await currentLimit()).toBeNull();
  });

  it('accepts exactly 1000000 and the largest safe integer', async () => {
    for (const limit of [1_000_000, Number.MAX_SAFE_INTEGER]) {
      const res = await t.request('PUT', PATH, { key: org.ownerKey, body: { limit } });
      expect(res.status).toBe(200);
      expect(await currentLimit()).toBe(limit);
    }
  });

  it('200 for owner and manager; 403 for member and guest, which change nothing', async () => {
    await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: 2_000_000 } });
    const manager = await t.addUser(org, 'manager');
    expect((await t.request('PUT', PATH, { key: manager.key, body: { limit: 3_000_000 } })).status).toBe(200);
    for (const role of ['member', 'guest'] as const) {
      const u = await t.addUser(org, role);
      const err = expectErrorObject(await t.request('PUT', PATH, { key: u.key, body: { limit: 9_000_000 } }), 403);
      expect(err.title).toBe('Forbidden');
      // members and guests may still read it
      expect((await t.request('GET', PATH, { key: u.key })).body).toEqual({ limit: 3_000_000 });
    }
    expect(await currentLimit()).toBe(3_000_000);
  });

  const invalidBodies: [string, string | undefined, string][] = [
    ['below the minimum', '{"limit": 999999}', '/limit'],
    ['zero', '{"limit": 0}', '/limit'],
    ['negative', '{"limit": -5000000}', '/limit'],
    ['a float', '{"limit": 1000000.5}', '/limit'],
    ['a numeric string', '{"limit": "2000000"}', '/limit'],
    ['a boolean', '{"limit": true}', '/limit'],
    ['an object', '{"limit": {}}', '/limit'],
    ['past 2^53', '{"limit": 9007199254740993}', '/limit'],
    ['exactly 2^53', '{"limit": 9007199254740992}', '/limit'],
    ['an exponent past 2^53', '{"limit": 1e300}', '/limit'],
    ['missing limit', '{}', '/limit'],
    ['an extra property', '{"limit": 2000000, "scope": "all"}', '/scope'],
    ['an array body', '[2000000]', ''],
    ['a bare number body', '2000000', ''],
    ['no body at all', undefined, ''],
  ];

  it.each(invalidBodies)('400 for %s, with metadata.errors, and the stored limit unchanged', async (_name, raw, path) => {
    await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: 4_000_000 } });
    const res = await t.request('PUT', PATH, { key: org.ownerKey, rawBody: raw, headers: raw === undefined ? {} : { 'content-type': 'application/json' } });
    const err = expectErrorObject(res, 400);
    const items = err.metadata?.errors as { path: string; message: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((i) => i.path)).toContain(path);
    expect(err.detail).toContain('body');
    expect(await currentLimit()).toBe(4_000_000);
  });

  it('names the rule in the detail', async () => {
    const res = await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: 10 } });
    expect(expectErrorObject(res, 400).detail).toBe('body/limit must be >= 1000000 or null');
  });

  it('accepts exactly the integers from 1000000 to 2^53-1 and null (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: -1e7, max: 3e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.string(), fc.boolean()),
        async (limit) => {
          const before = await currentLimit();
          const res = await t.request('PUT', PATH, { key: org.ownerKey, body: { limit } });
          const valid = limit === null || (typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1_000_000);
          expect(res.status).toBe(valid ? 200 : 400);
          expect(await currentLimit()).toBe(valid ? limit : before);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('audit log', () => {
  it('records who changed the global limit from what to what, newest first; unchanged values add nothing', async () => {
    const manager = await t.addUser(org, 'manager');
    await t.request('PUT', PATH, { key: org.ownerKey, body: { limit: 7_000_000 } });
    await t.request('PUT', PATH, { key: manager.key, body: { limit: 8_000_000 } });
    await t.request('PUT', PATH, { key: manager.key, body: { limit: 8_000_000 } });
    const log = await t.request<{ entries: Record<string, unknown>[] }>('GET', '/api/v0/organization/usage/limits/audit?limit=2', { key: org.ownerKey });
    expect(log.status).toBe(200);
    expect(log.body.entries).toHaveLength(2);
    expect(log.body.entries[0]).toMatchObject({ actorEmail: manager.email, scope: 'global', oldLimit: 7_000_000, newLimit: 8_000_000 });
    expect(log.body.entries[1]).toMatchObject({ actorId: org.ownerId, scope: 'global', newLimit: 7_000_000 });
    const older = await t.request<{ entries: { id: number }[] }>('GET', `/api/v0/organization/usage/limits/audit?before=${log.body.entries[1]!.id}`, {
      key: org.ownerKey,
    });
    expect(older.body.entries.every((e) => e.id < (log.body.entries[1]!.id as number))).toBe(true);
  });

  it('is closed to members', async () => {
    const m = await t.addUser(org, 'member');
    expectErrorObject(await t.request('GET', '/api/v0/organization/usage/limits/audit', { key: m.key }), 403);
  });
});
