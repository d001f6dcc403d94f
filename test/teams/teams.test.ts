import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const TEAMS = '/api/v0/organization/teams';

interface Team {
  id: string;
  name: string;
  members: { id: string; email: string; name: string; role: string }[];
  createdAt: number;
  updatedAt: number;
}

const clock = new TestClock(Date.parse('2026-11-02T09:00:00Z'));
let t: TestApp;
let org: Org;
let manager: { id: string; email: string; key: string };
let member: { id: string; email: string; key: string };
let guest: { id: string; email: string; key: string };

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('teams-org');
  manager = await t.addUser(org, 'manager', 'manny@teams.test');
  member = await t.addUser(org, 'member', 'mia@teams.test');
  guest = await t.addUser(org, 'guest', 'gus@teams.test');
});
afterAll(() => t?.close());

const create = (name: string, userIds?: string[], key = org.ownerKey) =>
  t.request<Team>('POST', TEAMS, { key, body: { name, ...(userIds ? { userIds } : {}) } });
const list = async (key = org.ownerKey) => (await t.request<{ teams: Team[] }>('GET', TEAMS, { key })).body.teams;

describe('teams', () => {
  it('creates, reads, renames and deletes a team', async () => {
    const made = await create('Platform', [member.id, guest.id]);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Platform',
      members: [
        { id: guest.id, email: 'gus@teams.test', role: 'guest' },
        { id: member.id, role: 'member' },
      ],
    });
    const got = await t.request<Team>('GET', `${TEAMS}/${made.body.id}`, { key: org.ownerKey });
    expect(got.body).toEqual(made.body);

    const renamed = await t.request<Team>('PATCH', `${TEAMS}/${made.body.id}`, { key: manager.key, body: { name: 'Platform Eng' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: made.body.id, name: 'Platform Eng' });
    expect((await list()).map((x) => x.name)).toContain('Platform Eng');

    const deleted = await t.request('DELETE', `${TEAMS}/${made.body.id}`, { key: manager.key });
    expect(deleted.status).toBe(204);
    expect((await list()).map((x) => x.id)).not.toContain(made.body.id);
    expectErrorObject(await t.request('GET', `${TEAMS}/${made.body.id}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('DELETE', `${TEAMS}/${made.body.id}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('PATCH', `${TEAMS}/${made.body.id}`, { key: org.ownerKey, body: { name: 'Zombie' } }), 404);
    // The deleted team's row stays, with the name it had, for analytics' history.
    const kept = await t.db.query<{ name: string; deleted: boolean }>(`SELECT name, deleted_at IS NOT NULL AS deleted FROM teams WHERE id = $1`, [
      made.body.id,
    ]);
    expect(kept).toEqual([{ name: 'Platform Eng', deleted: true }]);
  });

  it('refuses a duplicate name in any case with 409, allows renaming a team to its own name in another case', async () => {
    const a = await create('Data');
    const dup = expectErrorObject(await create('data'), 409);
    expect(dup.metadata).toMatchObject({ code: 'name_taken', field: 'name' });
    const b = await create('Infra');
    expectErrorObject(await t.request('PATCH', `${TEAMS}/${b.body.id}`, { key: org.ownerKey, body: { name: 'DATA' } }), 409);
    const recased = await t.request<Team>('PATCH', `${TEAMS}/${a.body.id}`, { key: org.ownerKey, body: { name: 'DATA' } });
    expect(recased.body.name).toBe('DATA');
  });

  it("reuses a deleted team's name; the deleted team is not listed", async () => {
    const old = await create('Mobile', [member.id]);
    await t.request('DELETE', `${TEAMS}/${old.body.id}`, { key: org.ownerKey });
    const again = await create('mobile');
    expect(again.status).toBe(201);
    expect(again.body.members).toEqual([]);
    const mobiles = (await list()).filter((x) => x.name.toLowerCase() === 'mobile');
    expect(mobiles.map((x) => x.id)).toEqual([again.body.id]);
  });

  it('puts a person in several teams, and sets, adds and removes members', async () => {
    const web = (await create('Web', [member.id])).body;
    const api = (await create('API', [member.id, manager.id])).body;
    const teams = await list();
    const withMia = teams.filter((x) => x.members.some((m) => m.id === member.id)).map((x) => x.name);
    expect(withMia).toEqual(expect.arrayContaining(['Web', 'API']));

    const set = await t.request<Team>('PUT', `${TEAMS}/${web.id}/members`, { key: manager.key, body: { userIds: [org.ownerId, guest.id] } });
    expect(set.status).toBe(200);
    expect(set.body.members.map((m) => m.id).sort()).toEqual([org.ownerId, guest.id].sort());

    const added = await t.request<Team>('PUT', `${TEAMS}/${web.id}/members/${member.id.toUpperCase()}`, { key: org.ownerKey });
    expect(added.body.members).toHaveLength(3);
    expect((await t.request<Team>('PUT', `${TEAMS}/${web.id}/members/${member.id}`, { key: org.ownerKey })).body.members).toHaveLength(3);

    const removed = await t.request<Team>('DELETE', `${TEAMS}/${web.id}/members/${guest.id}`, { key: org.ownerKey });
    expect(removed.body.members.map((m) => m.id)).not.toContain(guest.id);
    expect((await t.request<Team>('DELETE', `${TEAMS}/${web.id}/members/${guest.id}`, { key: org.ownerKey })).status).toBe(200);

    const emptied = await t.request<Team>('PUT', `${TEAMS}/${api.id}/members`, { key: org.ownerKey, body: { userIds: [] } });
    expect(emptied.body.members).toEqual([]);
  });

  it('dates a team by the clock: updatedAt moves on a rename and on a change of members, not on a request that changes nothing', async () => {
    const created = clock.now().getTime();
    const team = (await create('Dated', [member.id])).body;
    expect(team).toMatchObject({ createdAt: created, updatedAt: created });
    const at = async () => (await t.request<Team>('GET', `${TEAMS}/${team.id}`, { key: org.ownerKey })).body.updatedAt;
    clock.advance(60_000);
    await t.request('PUT', `${TEAMS}/${team.id}/members/${member.id}`, { key: org.ownerKey });
    await t.request('DELETE', `${TEAMS}/${team.id}/members/${guest.id}`, { key: org.ownerKey });
    await t.request('PUT', `${TEAMS}/${team.id}/members`, { key: org.ownerKey, body: { userIds: [member.id] } });
    await t.request('PATCH', `${TEAMS}/${team.id}`, { key: org.ownerKey, body: { name: 'Dated' } });
    expect(await at()).toBe(created);
    await t.request('PUT', `${TEAMS}/${team.id}/members/${guest.id}`, { key: org.ownerKey });
    expect(await at()).toBe(created + 60_000);
    clock.advance(60_000);
    await t.request('PATCH', `${TEAMS}/${team.id}`, { key: org.ownerKey, body: { name: 'Dated Again' } });
    expect(await at()).toBe(created + 120_000);
  });

  it('refuses an id that is no user of the organization: a service account, another organization’s user, an unknown id', async () => {
    const team = (await create('Security')).body;
    const other = await t.createOrg('other-org');
    const bot = await t.operatorIdentity.addServiceAccount({ orgId: org.orgId, name: 'ci-bot', role: 'member' });
    const stranger = '00000000-0000-4000-8000-000000000000';
    const res = expectErrorObject(
      await t.request('PUT', `${TEAMS}/${team.id}/members`, { key: org.ownerKey, body: { userIds: [member.id, bot.id, other.ownerId, stranger] } }),
      400,
    );
    expect((res.metadata as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['/userIds/1', '/userIds/2', '/userIds/3']);
    // Nothing of a refused request is applied.
    expect((await t.request<Team>('GET', `${TEAMS}/${team.id}`, { key: org.ownerKey })).body.members).toEqual([]);
    expectErrorObject(await create('Bots', [bot.id]), 400);
    expect((await list()).map((x) => x.name)).not.toContain('Bots');
    const notUser = expectErrorObject(await t.request('PUT', `${TEAMS}/${team.id}/members/${other.ownerId}`, { key: org.ownerKey }), 404);
    expect(notUser.metadata).toMatchObject({ code: 'user_not_found' });
    expectErrorObject(await t.request('DELETE', `${TEAMS}/${team.id}/members/${stranger}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('PUT', `${TEAMS}/${team.id}/members/not-a-uuid`, { key: org.ownerKey }), 404);
  });

  it('answers 404 for an unknown team, a malformed id, and a team of another organization', async () => {
    const other = await t.createOrg('third-org');
    const theirs = (await create('Theirs', undefined, other.ownerKey)).body;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', theirs.id]) {
      const res = expectErrorObject(await t.request('GET', `${TEAMS}/${id}`, { key: org.ownerKey }), 404);
      expect(res.metadata).toMatchObject({ code: 'team_not_found' });
    }
    expectErrorObject(await t.request('PUT', `${TEAMS}/${theirs.id}/members`, { key: org.ownerKey, body: { userIds: [] } }), 404);
    expect((await list()).map((x) => x.id)).not.toContain(theirs.id);
  });

  it('refuses invalid names and bodies with 400', async () => {
    for (const name of ['', 'x'.repeat(101), ' Lead', 'Trail ', 'tab\there']) expectErrorObject(await create(name), 400);
    expect((await create('é'.repeat(100))).status).toBe(201);
    expectErrorObject(await t.request('POST', TEAMS, { key: org.ownerKey, body: { name: 'Extra', budget: 5 } }), 400);
    expectErrorObject(await t.request('POST', TEAMS, { key: org.ownerKey, body: { name: 'Twice', userIds: [member.id, member.id] } }), 400);
  });

  it('lets owners and managers change teams, members read them, and guests neither', async () => {
    const team = (await create('Roles', [member.id])).body;
    expect((await t.request('GET', TEAMS, { key: member.key })).status).toBe(200);
    expect((await t.request<Team>('GET', `${TEAMS}/${team.id}`, { key: member.key })).body.members.map((m) => m.id)).toEqual([member.id]);
    expect((await create('By manager', undefined, manager.key)).status).toBe(201);
    const writes = (key: string) => [
      create('Nope', undefined, key),
      t.request('PATCH', `${TEAMS}/${team.id}`, { key, body: { name: 'Nope' } }),
      t.request('DELETE', `${TEAMS}/${team.id}`, { key }),
      t.request('PUT', `${TEAMS}/${team.id}/members`, { key, body: { userIds: [] } }),
      t.request('PUT', `${TEAMS}/${team.id}/members/${member.id}`, { key }),
      t.request('DELETE', `${TEAMS}/${team.id}/members/${member.id}`, { key }),
    ];
    for (const res of await Promise.all([...writes(member.key), ...writes(guest.key)])) expectErrorObject(res, 403);
    expectErrorObject(await t.request('GET', TEAMS, { key: guest.key }), 403);
    expectErrorObject(await t.request('GET', `${TEAMS}/${team.id}`, { key: guest.key }), 403);
    expectErrorObject(await t.request('GET', TEAMS), 401);
    expect((await t.request<Team>('GET', `${TEAMS}/${team.id}`, { key: org.ownerKey })).body).toMatchObject({ name: 'Roles', members: [{ id: member.id }] });
  });

  it('a removed user leaves their teams', async () => {
    const leaving = await t.addUser(org, 'member', 'leaving@teams.test');
    const team = (await create('Alumni', [leaving.id, member.id])).body;
    await t.identity.removeUser(org.orgId, leaving.email);
    expect((await t.request<Team>('GET', `${TEAMS}/${team.id}`, { key: org.ownerKey })).body.members.map((m) => m.id)).toEqual([member.id]);
  });
});
