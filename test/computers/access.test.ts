import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;
const C = '/api/v0/computers';
type Computer = { id: string; name: string; ownerId: string };
let alice: { id: string; key: string };
let bob: { id: string; key: string };
let guest: { key: string };
let manager: { key: string };
let alicesComputer: Computer;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('computers-access');
  alice = await t.addUser(org, 'member');
  bob = await t.addUser(org, 'member');
  guest = await t.addUser(org, 'guest');
  manager = await t.addUser(org, 'manager');
  alicesComputer = (await t.request<Computer>('POST', C, { key: alice.key, body: { name: 'alice-box' } })).body;
});
afterAll(() => t?.close());

describe('roles and ownership', () => {
  it('a member creates a computer that they own, and reaches it', async () => {
    expect(alicesComputer.ownerId).toBe(alice.id);
    expect((await t.request('GET', `${C}/${alicesComputer.id}`, { key: alice.key })).status).toBe(200);
    expect((await t.request('GET', `${C}/name/alice-box`, { key: alice.key })).status).toBe(200);
  });

  it("a member cannot see or change another member's computer: 404 on every operation", async () => {
    const id = alicesComputer.id;
    for (const [method, url, body] of [
      ['GET', `${C}/${id}`, undefined],
      ['GET', `${C}/name/alice-box`, undefined],
      ['PATCH', `${C}/${id}`, { name: 'stolen' }],
      ['POST', `${C}/${id}/install-deps`, undefined],
      ['DELETE', `${C}/${id}`, undefined],
      ['POST', `${C}/${id}/agent/register`, { hostId: '3b241101-e2bb-4255-8caf-4136c566a962', hostname: 'h', remoteUser: 'u' }],
    ] as const) {
      const res = await t.request(method, url, { key: bob.key, body });
      expectErrorObject(res, 404);
    }
    const list = await t.request<{ computers: Computer[] }>('GET', C, { key: bob.key });
    expect(list.body.computers.map((c) => c.id)).not.toContain(id);
    expect((await t.request<Computer>('GET', `${C}/${id}`, { key: alice.key })).body.name).toBe('alice-box');
  });

  it('owners and managers reach every computer of the organization', async () => {
    for (const key of [org.ownerKey, manager.key]) {
      expect((await t.request('GET', `${C}/${alicesComputer.id}`, { key })).status).toBe(200);
      const list = await t.request<{ computers: Computer[] }>('GET', C, { key });
      expect(list.body.computers.map((c) => c.id)).toContain(alicesComputer.id);
    }
  });

  it('a guest gets 403 on every computer operation', async () => {
    const id = alicesComputer.id;
    for (const [method, url, body] of [
      ['POST', C, { name: 'guest-box' }],
      ['GET', C, undefined],
      ['GET', `${C}/${id}`, undefined],
      ['GET', `${C}/name/alice-box`, undefined],
      ['PATCH', `${C}/${id}`, { name: 'x' }],
      ['POST', `${C}/${id}/install-deps`, undefined],
      ['DELETE', `${C}/${id}`, undefined],
    ] as const) {
      expectErrorObject(await t.request(method, url, { key: guest.key, body }), 403);
    }
  });

  it('another organization gets 404, even its owner', async () => {
    const other = await t.createOrg('computers-access-other');
    expectErrorObject(await t.request('GET', `${C}/${alicesComputer.id}`, { key: other.ownerKey }), 404);
    expectErrorObject(await t.request('GET', `${C}/name/alice-box`, { key: other.ownerKey }), 404);
    expectErrorObject(await t.request('PATCH', `${C}/${alicesComputer.id}`, { key: other.ownerKey, body: { name: 'x' } }), 404);
    expectErrorObject(await t.request('POST', `${C}/${alicesComputer.id}/install-deps`, { key: other.ownerKey }), 404);
    expectErrorObject(await t.request('DELETE', `${C}/${alicesComputer.id}`, { key: other.ownerKey }), 404);
    expect((await t.request<{ computers: unknown[] }>('GET', C, { key: other.ownerKey })).body.computers).toEqual([]);
  });

  it('a member may not make a service account the owner (403); a manager may', async () => {
    const sa = await t.operatorIdentity.addServiceAccount({ orgId: org.orgId, name: 'bot', role: 'member' });
    expectErrorObject(await t.request('POST', C, { key: alice.key, body: { name: 'sa-box', serviceAccountId: sa.id } }), 403);
    const res = await t.request<Computer>('POST', C, { key: manager.key, body: { name: 'sa-box', serviceAccountId: sa.id } });
    expect(res.status).toBe(201);
    expect(res.body.ownerId).toBe(sa.id);
  });

  it('401 without a credential', async () => {
    expectErrorObject(await t.request('GET', C), 401);
    expectErrorObject(await t.request('POST', C, { body: { name: 'x' } }), 401);
  });
});
