import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/core/accounts/secrets.js';
import { expectErrorObject, TestApp, type Org } from '../../helpers/test-app.js';
import { CookieSession } from './cookie-session.js';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('profile');
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

describe('PATCH /api/v0/me: one changes their own name and email', () => {
  it('changes both; the session and the key keep working and read the new values; the new email signs in, the old one no longer does', async () => {
    const me = await signedIn('member');
    const res = await me.browser.request('PATCH', '/api/v0/me', { body: { name: 'Ada Lovelace', email: 'Ada@Example.COM' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ principalId: me.id, name: 'Ada Lovelace', email: 'ada@example.com', role: 'member', credential: { type: 'session' } });
    expect((await me.browser.request('GET', '/api/v0/session')).body).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect((await t.request('GET', '/api/v0/me', { key: me.key })).body).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
    expect((await new CookieSession(t).login('ada@example.com', me.password)).status).toBe(200);
    expectErrorObject(await new CookieSession(t).login(me.email, me.password), 401);
  });

  it('a cached key reads the new email on the very next request', async () => {
    const me = await t.addUser(org, 'guest');
    expect((await t.request('GET', '/api/v0/me', { key: me.key })).body).toMatchObject({ email: me.email });
    const res = await t.request('PATCH', '/api/v0/me', { key: me.key, body: { email: 'renamed.guest@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'renamed.guest@example.com', credential: { type: 'api_key' } });
    expect((await t.request('GET', '/api/v0/me', { key: me.key })).body).toMatchObject({ email: 'renamed.guest@example.com' });
  });

  it('the first owner can leave owner@…: only the name, or only the email', async () => {
    expect((await t.request('PATCH', '/api/v0/me', { key: org.ownerKey, body: { name: 'Grace Hopper' } })).body).toMatchObject({
      name: 'Grace Hopper',
      email: 'owner@profile.test',
    });
    expect((await t.request('PATCH', '/api/v0/me', { key: org.ownerKey, body: { email: 'grace@profile.test' } })).body).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@profile.test',
      role: 'owner',
    });
  });

  it('an email another user of the organization has is 409 email_taken, whatever its case; one of another organization is free', async () => {
    const a = await t.addUser(org, 'member');
    const b = await t.addUser(org, 'member');
    const taken = expectErrorObject(await t.request('PATCH', '/api/v0/me', { key: a.key, body: { email: b.email.toUpperCase() } }), 409);
    expect(taken.metadata).toMatchObject({ code: 'email_taken' });
    expect((await t.request('GET', '/api/v0/me', { key: a.key })).body).toMatchObject({ email: a.email });
    const other = await t.createOrg('elsewhere', 'someone@elsewhere.test');
    expect(other.orgId).not.toBe(org.orgId);
    expect((await t.request('PATCH', '/api/v0/me', { key: a.key, body: { email: 'someone@elsewhere.test' } })).status).toBe(200);
    // One's own email again is no conflict.
    expect((await t.request('PATCH', '/api/v0/me', { key: a.key, body: { email: 'someone@elsewhere.test' } })).status).toBe(200);
  });

  it('refuses an empty body, an empty or blank name, a non-email and unknown fields (400)', async () => {
    const me = await t.addUser(org, 'member');
    for (const body of [{}, { name: '' }, { name: '   ' }, { email: 'not an email' }, { role: 'owner' }]) {
      expectErrorObject(await t.request('PATCH', '/api/v0/me', { key: me.key, body }), 400);
    }
    expect((await t.request('GET', '/api/v0/me', { key: me.key })).body).toMatchObject({ role: 'member', email: me.email });
  });

  it('a session write needs the CSRF token; a service account cannot change its own profile (403); no credential is 401', async () => {
    const me = await signedIn('member');
    expectErrorObject(await me.browser.request('PATCH', '/api/v0/me', { body: { name: 'X' }, csrf: null }), 403);
    const sa = await t.request<{ id: string }>('POST', '/api/v0/organization/service-accounts', { key: org.ownerKey, body: { name: 'bot', role: 'member' } });
    const key = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: sa.body.id } });
    expectErrorObject(await t.request('PATCH', '/api/v0/me', { key: key.body.key, body: { name: 'not a bot' } }), 403);
    expectErrorObject(await t.request('PATCH', '/api/v0/me', { body: { name: 'nobody' } }), 401);
  });
});

describe('DELETE /api/v0/organization/invitations/{id}: revoking a pending invitation', () => {
  const invite = async (key: string, email: string, role = 'member') =>
    (await t.request<{ id: string; token: string }>('POST', '/api/v0/organization/invitations', { key, body: { email, role } })).body;
  const pending = async (key: string) =>
    (await t.request<{ invitations: { id: string }[] }>('GET', '/api/v0/organization/invitations', { key })).body.invitations.map((i) => i.id);

  it('an owner revokes: 204, it leaves the pending list, its link answers 404, a second revocation 404', async () => {
    const made = await invite(org.ownerKey, 'revoked.person@example.com');
    expect(await pending(org.ownerKey)).toContain(made.id);
    expect((await t.request('DELETE', `/api/v0/organization/invitations/${made.id}`, { key: org.ownerKey })).status).toBe(204);
    expect(await pending(org.ownerKey)).not.toContain(made.id);
    const accept = await t.request('POST', '/api/v0/invitations/accept', { body: { token: made.token, password: 'a long password' } });
    expect(expectErrorObject(accept, 404).metadata).toMatchObject({ code: 'invitation_not_found' });
    expect(expectErrorObject(await t.request('DELETE', `/api/v0/organization/invitations/${made.id}`, { key: org.ownerKey }), 404).metadata).toMatchObject({
      code: 'invitation_not_found',
    });
  });

  it('a manager revokes a member invitation but not an owner one (403); members and guests are refused (403)', async () => {
    const manager = await t.addUser(org, 'manager');
    const forMember = await invite(org.ownerKey, 'for.member@example.com');
    const forOwner = await invite(org.ownerKey, 'for.owner@example.com', 'owner');
    expectErrorObject(await t.request('DELETE', `/api/v0/organization/invitations/${forOwner.id}`, { key: manager.key }), 403);
    for (const role of ['member', 'guest'] as const) {
      const user = await t.addUser(org, role);
      expectErrorObject(await t.request('DELETE', `/api/v0/organization/invitations/${forMember.id}`, { key: user.key }), 403);
    }
    expect((await t.request('DELETE', `/api/v0/organization/invitations/${forMember.id}`, { key: manager.key })).status).toBe(204);
    expect(await pending(org.ownerKey)).toContain(forOwner.id);
  });

  it("another organization's invitation, an accepted one, an unknown id, a malformed id: 404", async () => {
    const other = await t.createOrg('other', 'owner@other.test');
    const theirs = await invite(other.ownerKey, 'theirs@example.com');
    expectErrorObject(await t.request('DELETE', `/api/v0/organization/invitations/${theirs.id}`, { key: org.ownerKey }), 404);
    const used = await invite(org.ownerKey, 'used.invitation@example.com');
    expect((await t.request('POST', '/api/v0/invitations/accept', { body: { token: used.token, password: 'a long password' } })).status).toBe(200);
    expectErrorObject(await t.request('DELETE', `/api/v0/organization/invitations/${used.id}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('DELETE', '/api/v0/organization/invitations/00000000-0000-4000-8000-000000000000', { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('DELETE', '/api/v0/organization/invitations/nope', { key: org.ownerKey }), 404);
  });
});
