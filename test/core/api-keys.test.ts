import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { isWellFormedApiKey } from '../../src/core/identity/api-key-format.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

type Key = { id: string; name: string; prefix: string; principalId: string; lastUsedAt: number | null; revokedAt: number | null; key?: string };

let t: TestApp;
let org: Org;
const clock = new TestClock();

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('keys-org');
});
afterAll(() => t?.close());

describe('API keys', () => {
  it('creates a key shown once, listed afterwards by metadata only', async () => {
    const created = await t.request<Key>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(isWellFormedApiKey(created.body.key!)).toBe(true);
    expect(created.body.key!.startsWith(created.body.prefix)).toBe(true);
    const list = await t.request<{ apiKeys: Key[] }>('GET', '/api/v0/api-keys', { key: org.ownerKey });
    const listed = list.body.apiKeys.find((k) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'ci', principalId: org.ownerId, revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it('stores only a hash of the secret', async () => {
    const created = await t.request<Key>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: {} });
    const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [created.body.id]);
    expect(JSON.stringify(rows)).not.toContain(created.body.key);
  });

  it('records lastUsedAt when a key is used, again a minute later', async () => {
    const user = await t.addUser(org, 'member');
    const lastUsed = async () => {
      const list = await t.request<{ apiKeys: Key[] }>('GET', `/api/v0/api-keys?principalId=${user.id}`, { key: org.ownerKey });
      expect(list.body.apiKeys).toHaveLength(1);
      return list.body.apiKeys[0]!.lastUsedAt;
    };
    expect(await lastUsed()).toBeNull();
    // The write is off the request path: the test waits for it to land, and moves the clock for the minute.
    const used = async (at: number) => {
      await t.request('GET', '/api/v0/me', { key: user.key });
      return waitFor(async () => ((await lastUsed()) === at ? at : undefined), 5000, `lastUsedAt ${at}`);
    };
    const first = clock.now().getTime();
    expect(await used(first)).toBe(first);
    clock.advance(60_000);
    expect(await used(first + 60_000)).toBe(first + 60_000);
  });

  it('a member sees only their own keys and cannot issue one for someone else', async () => {
    const member = await t.addUser(org, 'member');
    const list = await t.request<{ apiKeys: Key[] }>('GET', '/api/v0/api-keys', { key: member.key });
    expect(list.body.apiKeys.every((k) => k.principalId === member.id)).toBe(true);
    expectErrorObject(await t.request('POST', '/api/v0/api-keys', { key: member.key, body: { principalId: org.ownerId } }), 403);
  });

  it('a manager may issue a key for a member but not for the owner', async () => {
    const manager = await t.addUser(org, 'manager');
    const member = await t.addUser(org, 'member');
    const forMember = await t.request<Key>('POST', '/api/v0/api-keys', { key: manager.key, body: { email: member.email } });
    expect(forMember.status).toBe(201);
    expect(forMember.body.principalId).toBe(member.id);
    const me = await t.request('GET', '/api/v0/me', { key: forMember.body.key });
    expect(me.body).toMatchObject({ principalId: member.id, role: 'member' });
    expectErrorObject(await t.request('POST', '/api/v0/api-keys', { key: manager.key, body: { principalId: org.ownerId } }), 403);
  });

  it('rejects an expiry in the past, unknown properties and an unknown principal', async () => {
    const past = await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { expiresAt: clock.now().getTime() - 1 } });
    expect(expectErrorObject(past, 400).metadata).toEqual({ code: 'validation_failed', errors: [{ path: '/expiresAt', message: 'must be in the future' }] });
    const extra = await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { name: 'x', admin: true } });
    expect(expectErrorObject(extra, 400).metadata).toEqual({ code: 'validation_failed', errors: [{ path: '/admin', message: 'is not an allowed property' }] });
    expectErrorObject(await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { email: 'nobody@example.com' } }), 404);
  });

  it("a member cannot revoke another user's key: it answers 404", async () => {
    const a = await t.addUser(org, 'member');
    const b = await t.addUser(org, 'member');
    const bKeys = await t.request<{ apiKeys: Key[] }>('GET', '/api/v0/api-keys', { key: b.key });
    expectErrorObject(await t.request('DELETE', `/api/v0/api-keys/${bKeys.body.apiKeys[0]!.id}`, { key: a.key }), 404);
    expect((await t.request('GET', '/api/v0/me', { key: b.key })).status).toBe(200);
  });

  it('an owner revokes any key of the organization', async () => {
    const m = await t.addUser(org, 'member');
    const keys = await t.request<{ apiKeys: Key[] }>('GET', `/api/v0/api-keys?principalId=${m.id}`, { key: org.ownerKey });
    expect(keys.body.apiKeys).toHaveLength(1);
    expect((await t.request('DELETE', `/api/v0/api-keys/${keys.body.apiKeys[0]!.id}`, { key: org.ownerKey })).status).toBe(204);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: m.key }), 401);
    const after = await t.request<{ apiKeys: Key[] }>('GET', `/api/v0/api-keys?principalId=${m.id}`, { key: org.ownerKey });
    expect(after.body.apiKeys[0]!.revokedAt).toBeGreaterThan(0);
  });
});
