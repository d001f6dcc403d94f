import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

type Account = { id: string; name: string; role: string; createdAt: number; activeKeys: number };

let t: TestApp;
let org: Org;
const PATH = '/api/v0/organization/service-accounts';

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('service-accounts-org');
});
afterAll(() => t?.close());

describe('service accounts over the API', () => {
  it('an owner creates one, lists it, and gives it a key that acts as it', async () => {
    const created = await t.request<Account>('POST', PATH, { key: org.ownerKey, body: { name: 'deploy bot', role: 'member' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'deploy bot', role: 'member', activeKeys: 0 });
    const key = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: created.body.id, name: 'ci' } });
    expect(key.status).toBe(201);
    const me = await t.request('GET', '/api/v0/me', { key: key.body.key });
    expect(me.body).toMatchObject({ principalId: created.body.id, kind: 'service_account', email: null, role: 'member' });
    const list = await t.request<{ serviceAccounts: Account[] }>('GET', PATH, { key: org.ownerKey });
    expect(list.body.serviceAccounts.find((a) => a.id === created.body.id)).toMatchObject({ name: 'deploy bot', activeKeys: 1 });
  });

  it('members and guests get 403 on every service-account route', async () => {
    for (const role of ['member', 'guest'] as const) {
      const user = await t.addUser(org, role);
      expectErrorObject(await t.request('GET', PATH, { key: user.key }), 403);
      expectErrorObject(await t.request('POST', PATH, { key: user.key, body: { name: 'x', role: 'member' } }), 403);
      expectErrorObject(await t.request('DELETE', `${PATH}/${org.ownerId}`, { key: user.key }), 403);
    }
  });

  it('rejects an owner or guest role, an empty name and unknown properties with 400', async () => {
    for (const body of [
      { name: 'x', role: 'owner' },
      { name: 'x', role: 'guest' },
      { name: '', role: 'member' },
      { name: 'x', role: 'member', admin: true },
    ]) {
      expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body }), 400);
    }
  });

  it('a removal ends its keys at once; removing a user or an unknown id through this route answers 404', async () => {
    const manager = await t.addUser(org, 'manager');
    const sa = await t.request<Account>('POST', PATH, { key: manager.key, body: { name: 'short-lived', role: 'manager' } });
    expect(sa.status).toBe(201);
    const key = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: manager.key, body: { principalId: sa.body.id } });
    expect((await t.request('GET', '/api/v0/me', { key: key.body.key })).status).toBe(200);
    expect((await t.request('DELETE', `${PATH}/${sa.body.id}`, { key: manager.key })).status).toBe(204);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: key.body.key }), 401);
    expectErrorObject(await t.request('DELETE', `${PATH}/${sa.body.id}`, { key: manager.key }), 404);
    expectErrorObject(await t.request('DELETE', `${PATH}/${org.ownerId}`, { key: org.ownerKey }), 404);
  });

  it('another organization’s service account answers 404', async () => {
    const other = await t.createOrg('service-accounts-other');
    const sa = await t.request<Account>('POST', PATH, { key: other.ownerKey, body: { name: 'theirs', role: 'member' } });
    expectErrorObject(await t.request('DELETE', `${PATH}/${sa.body.id}`, { key: org.ownerKey }), 404);
    const list = await t.request<{ serviceAccounts: Account[] }>('GET', PATH, { key: org.ownerKey });
    expect(list.body.serviceAccounts.some((a) => a.id === sa.body.id)).toBe(false);
  });
});
