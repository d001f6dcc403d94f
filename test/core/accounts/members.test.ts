import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/core/accounts/secrets.js';
import { ingest, event } from '../../analytics/fixture.js';
import { expectErrorObject, TestApp, type Org } from '../../helpers/test-app.js';
import { CookieSession } from './cookie-session.js';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('team');
});
afterAll(() => t?.close());

async function signedIn(role: 'owner' | 'manager' | 'member' | 'guest') {
  const user = await t.addUser(org, role);
  const password = `${role} password 123`;
  await t.db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(password)]);
  const browser = new CookieSession(t);
  expect((await browser.login(user.email, password)).status).toBe(200);
  return { ...user, password, browser };
}

interface Created {
  token: string;
  url: string;
  email: string;
  role: string;
  expiresAt: number;
  createdAt: number;
}

describe('invitations', () => {
  it('an owner invites: a one-time link valid 7 days; accepting creates the user, signs them in, and works once', async () => {
    const owner = await signedIn('owner');
    const res = await owner.browser.request<Created>('POST', '/api/v0/organization/invitations', { body: { email: 'New.Person@Team.test', role: 'member' } });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe('new.person@team.test');
    expect(res.body.url).toBe(`http://127.0.0.1/invite/${res.body.token}`);
    expect(res.body.expiresAt - res.body.createdAt).toBe(7 * 86_400_000);
    const pending = await owner.browser.request<{ invitations: { email: string }[] }>('GET', '/api/v0/organization/invitations');
    expect(pending.body.invitations.map((i) => i.email)).toContain('new.person@team.test');

    const invitee = new CookieSession(t);
    const accepted = await invitee.request('POST', '/api/v0/invitations/accept', {
      body: { token: res.body.token, password: 'my own password', name: 'New Person' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ email: 'new.person@team.test', name: 'New Person', role: 'member', credential: 'session' });
    expect((await invitee.request('GET', '/api/v0/me')).body).toMatchObject({ role: 'member' });

    const again = await new CookieSession(t).request('POST', '/api/v0/invitations/accept', { body: { token: res.body.token, password: 'taking it over' } });
    expectErrorObject(again, 409);
    expectErrorObject(
      await new CookieSession(t).request('POST', '/api/v0/invitations/accept', { body: { token: 'x'.repeat(43), password: 'taking it over' } }),
      404,
    );
  });

  it('refuses an expired invitation with 409 and creates nobody', async () => {
    const res = await t.request<Created>('POST', '/api/v0/organization/invitations', { key: org.ownerKey, body: { email: 'late@team.test', role: 'guest' } });
    await t.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE email = 'late@team.test'`);
    const accepted = expectErrorObject(
      await new CookieSession(t).request('POST', '/api/v0/invitations/accept', { body: { token: res.body.token, password: 'too late now!' } }),
      409,
    );
    expect(accepted.detail).toMatch(/expired/);
    expect(await t.identity.findPrincipal(org.orgId, { email: 'late@team.test' })).toBeUndefined();
  });

  it('keeps the role rules: members cannot invite, managers cannot invite owners, members already in answer 409', async () => {
    const member = await signedIn('member');
    expectErrorObject(await member.browser.request('POST', '/api/v0/organization/invitations', { body: { email: 'x@team.test', role: 'member' } }), 403);
    const manager = await signedIn('manager');
    expectErrorObject(await manager.browser.request('POST', '/api/v0/organization/invitations', { body: { email: 'x@team.test', role: 'owner' } }), 403);
    expect((await manager.browser.request('POST', '/api/v0/organization/invitations', { body: { email: 'x@team.test', role: 'manager' } })).status).toBe(201);
    expectErrorObject(await manager.browser.request('POST', '/api/v0/organization/invitations', { body: { email: member.email, role: 'member' } }), 409);
  });
});

describe('members', () => {
  it('lists the users for owners and managers only', async () => {
    const member = await signedIn('member');
    expectErrorObject(await member.browser.request('GET', '/api/v0/organization/members'), 403);
    const list = await t.request<{ members: { id: string; role: string; hasPassword: boolean }[] }>('GET', '/api/v0/organization/members', {
      key: org.ownerKey,
    });
    expect(list.body.members.find((m) => m.id === member.id)).toMatchObject({ role: 'member', hasPassword: true });
    expect(list.body.members.find((m) => m.id === org.ownerId)).toMatchObject({ role: 'owner', hasPassword: false });
  });

  it('a demotion ends the demoted user’s sessions at once; their keys act with the new role', async () => {
    const manager = await signedIn('manager');
    expect((await manager.browser.request('GET', '/api/v0/organization/members')).status).toBe(200);
    const res = await t.request('PATCH', `/api/v0/organization/members/${manager.id}`, { key: org.ownerKey, body: { role: 'member' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: manager.id, role: 'member' });
    expectErrorObject(await manager.browser.request('GET', '/api/v0/me'), 401);
    expectErrorObject(await t.request('GET', '/api/v0/organization/members', { key: manager.key }), 403);
  });

  it('a role change made by the CLI also ends sessions (the session records the role it signed in with)', async () => {
    const member = await signedIn('member');
    await t.operatorIdentity.setUserRole(org.orgId, member.email, 'manager');
    expectErrorObject(await member.browser.request('GET', '/api/v0/me'), 401);
  });

  it('a removal ends the removed user’s sessions and keys', async () => {
    const member = await signedIn('member');
    expect((await t.request('DELETE', `/api/v0/organization/members/${member.id}`, { key: org.ownerKey })).status).toBe(204);
    expectErrorObject(await member.browser.request('GET', '/api/v0/me'), 401);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: member.key }), 401);
  });

  it('managers cannot change or remove owners, nor make anyone owner; the last owner stays (409)', async () => {
    const manager = await signedIn('manager');
    const member = await t.addUser(org, 'member');
    expectErrorObject(await manager.browser.request('PATCH', `/api/v0/organization/members/${org.ownerId}`, { body: { role: 'member' } }), 403);
    expectErrorObject(await manager.browser.request('DELETE', `/api/v0/organization/members/${org.ownerId}`), 403);
    expectErrorObject(await manager.browser.request('PATCH', `/api/v0/organization/members/${member.id}`, { body: { role: 'owner' } }), 403);
    expect((await manager.browser.request('PATCH', `/api/v0/organization/members/${member.id}`, { body: { role: 'guest' } })).status).toBe(200);
    const owners = await t.db.query<{ id: string }>(`SELECT id FROM principals WHERE org_id = $1 AND role = 'owner'`, [org.orgId]);
    const sole = await t.createOrg('solo');
    expect(owners.length).toBeGreaterThan(0);
    expectErrorObject(await t.request('PATCH', `/api/v0/organization/members/${sole.ownerId}`, { key: sole.ownerKey, body: { role: 'manager' } }), 409);
    expectErrorObject(await t.request('DELETE', `/api/v0/organization/members/${member.id}`, { key: sole.ownerKey }), 404);
  });
});

describe('own daily usage', () => {
  it('answers any role with the caller’s own rows only', async () => {
    const guest = await signedIn('guest');
    const other = await t.addUser(org, 'member');
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await ingest(t, org, [
      event(guest.id, 'tool_call', `${day}T10:00:00Z`, 'terminal-ui', { tool: 'Read', autonomyLevel: 'auto-high' }),
      event(other.id, 'tool_call', `${day}T11:00:00Z`, 'terminal-ui', { tool: 'Edit', autonomyLevel: 'auto-high' }),
    ]);
    const res = await guest.browser.request<{ data: { user_id: string; date: string; tool_calls: number }[] }>(
      'GET',
      `/api/v0/usage/daily?startDate=${day}&endDate=${day}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => [r.user_id, r.date, r.tool_calls])).toEqual([[guest.id, day, 1]]);
    expectErrorObject(await guest.browser.request('GET', `/api/v0/usage/daily?startDate=${day}&endDate=2020-01-01`), 400);
  });
});
