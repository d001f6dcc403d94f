import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { expectScimError, GROUP, PATCH_OP, scim, scimToken, USER, type ScimList, type ScimResource } from './scim-client.js';

// SCIM Groups are teams. The group sequences of Okta's and Entra ID's provisioning documentation
// (push a group, rename it, add and remove members, delete it), replayed over HTTP, and what
// orgctl's teams API sees of them.
const TEAMS = '/api/v0/organization/teams';
let t: TestApp;
let org: Org;
let call: ReturnType<typeof scim>;
const users: Record<string, string> = {};

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('groups-org');
  call = scim(t, await scimToken(t, org));
  for (const name of ['ada', 'bob', 'cy']) {
    const res = await call('POST', '/Users', { schemas: [USER], userName: `${name}@groups.test`, name: { givenName: name } });
    users[name] = res.body.id;
  }
});
afterAll(() => t.close());

const members = (g: ScimResource) => ((g.members ?? []) as { value: string }[]).map((m) => m.value).sort();
const team = async (id: string) => (await t.request<{ name: string; members: { id: string }[] }>('GET', `${TEAMS}/${id}`, { key: org.ownerKey })).body;

describe('Okta group push', () => {
  let id: string;

  it('creates the group as a team with its members', async () => {
    const res = await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [{ value: users.ada, display: 'ada@groups.test' }] });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({
      schemas: [GROUP],
      displayName: 'Test SCIMv2',
      members: [{ value: users.ada, display: 'ada@groups.test' }],
      meta: { resourceType: 'Group' },
    });
    expect(await team(id)).toMatchObject({ name: 'Test SCIMv2', members: [{ id: users.ada }] });
  });

  it('reads it without members (excludedAttributes=members)', async () => {
    const res = await call('GET', `/Groups/${id}?excludedAttributes=members`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('members');
    expect(res.body.displayName).toBe('Test SCIMv2');
  });

  it('renames it with a value object carrying id and displayName', async () => {
    const res = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { id, displayName: 'Test SCIMv2 renamed' } }],
    });
    expect(res.status).toBe(200);
    expect((await team(id)).name).toBe('Test SCIMv2 renamed');
  });

  it('adds members, then removes one by members[value eq "…"]', async () => {
    const added = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: users.bob, display: 'bob@groups.test' }, { value: users.cy }] }],
    });
    expect(members(added.body)).toEqual([users.ada, users.bob, users.cy].sort());
    const removed = await call('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${users.bob}"]` }] });
    expect(members(removed.body)).toEqual([users.ada, users.cy].sort());
    expect((await team(id)).members.map((m) => m.id).sort()).toEqual([users.ada, users.cy].sort());
  });

  it('replaces the whole group with PUT', async () => {
    const res = await call('PUT', `/Groups/${id}`, { schemas: [GROUP], id, displayName: 'Test SCIMv2 renamed', members: [{ value: users.bob }] });
    expect(res.status).toBe(200);
    expect(members(res.body)).toEqual([users.bob]);
  });

  it('is renamed only by SCIM: the teams API answers 409 team_managed_by_scim', async () => {
    const res = await t.request('PATCH', `${TEAMS}/${id}`, { key: org.ownerKey, body: { name: 'Hand-made name' } });
    expect(expectErrorObject(res, 409).metadata?.code).toBe('team_managed_by_scim');
    expect((await team(id)).name).toBe('Test SCIMv2 renamed');
  });

  it('deletes the group: the team is gone, then 404 in SCIM’s format', async () => {
    expect((await call('DELETE', `/Groups/${id}`)).status).toBe(204);
    expectErrorObject(await t.request('GET', `${TEAMS}/${id}`, { key: org.ownerKey }), 404);
    expectScimError(await call('GET', `/Groups/${id}`), 404);
  });
});

describe('Entra ID group provisioning', () => {
  let id: string;

  it('looks the group up by displayName, then creates it with an externalId', async () => {
    const lookup = await call<ScimList>('GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Group1DisplayName"')}`);
    expect(lookup.body.totalResults).toBe(0);
    const res = await call('POST', '/Groups', {
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'Group1DisplayName',
      members: [],
      meta: { resourceType: 'Group' },
      schemas: [GROUP],
    });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({ externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'Group1DisplayName', members: [] });
    const found = await call<ScimList>('GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "group1displayname"')}`);
    expect(found.body.Resources).toEqual([expect.objectContaining({ id, displayName: 'Group1DisplayName' })]);
    expect(found.body.Resources[0]).not.toHaveProperty('members');
  });

  it('adds a member with an Add op, and checks membership with a members filter', async () => {
    const res = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: users.ada }] }],
    });
    expect(res.status).toBe(200);
    const filter = encodeURIComponent(`id eq "${id}" and members[value eq "${users.ada}"]`);
    const check = await call<ScimList>('GET', `/Groups?excludedAttributes=members&filter=${filter}`);
    expect(check.body.totalResults).toBe(1);
  });

  it('removes the member with a Remove op carrying a value list', async () => {
    const res = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: users.ada }] }],
    });
    expect(members(res.body)).toEqual([]);
  });

  it('renames it with a Replace op on displayName', async () => {
    const res = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
    });
    expect(res.body.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
  });

  it('keeps a deactivated user out of the team, and brings no one back on reactivation', async () => {
    await call('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: users.cy }] }] });
    await call('PATCH', `/Users/${users.cy}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(members((await call('GET', `/Groups/${id}`)).body)).toEqual([]);
    // Entra keeps the disabled user in its group and may send them again: left out, not refused.
    const again = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: users.cy }, { value: users.bob }] }],
    });
    expect(again.status).toBe(200);
    expect(members(again.body)).toEqual([users.bob]);
  });

  it('refuses a member who is no user of the organization: 400 invalidValue, nothing changed', async () => {
    const stranger = '5a1f0a5e-0000-4000-8000-000000000000';
    expectScimError(
      await call('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: stranger }] }] }),
      400,
      'invalidValue',
    );
    expectScimError(
      await call('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: 'not-an-id' }] }] }),
      400,
      'invalidValue',
    );
    expect(members((await call('GET', `/Groups/${id}`)).body)).toEqual([users.bob]);
  });

  it('answers a clashing displayName with 409 uniqueness, and a too long one with 400', async () => {
    await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Taken' });
    expectScimError(await call('POST', '/Groups', { schemas: [GROUP], displayName: 'TAKEN' }), 409, 'uniqueness');
    expectScimError(await call('POST', '/Groups', { schemas: [GROUP], displayName: 'x'.repeat(101) }), 400, 'invalidValue');
  });

  it('deletes the group', async () => {
    expect((await call('DELETE', `/Groups/${id}`)).status).toBe(204);
    expectScimError(await call('DELETE', `/Groups/${id}`), 404);
  });

  it('lists teams made in orgctl too, and lets SCIM rename them', async () => {
    const made = await t.request<{ id: string }>('POST', TEAMS, { key: org.ownerKey, body: { name: 'Made by hand' } });
    const res = await call('PATCH', `/Groups/${made.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed by IdP' }],
    });
    expect(res.status).toBe(200);
    // Not created by SCIM: the teams API may still rename it.
    expect((await t.request('PATCH', `${TEAMS}/${made.body.id}`, { key: org.ownerKey, body: { name: 'Back by hand' } })).status).toBe(200);
  });
});
