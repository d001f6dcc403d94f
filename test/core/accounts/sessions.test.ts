import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsService } from '../../../src/core/accounts/service.js';
import { hashPassword } from '../../../src/core/accounts/secrets.js';
import { expectErrorObject, TestApp, type Org } from '../../helpers/test-app.js';
import { CookieSession, setCookies } from './cookie-session.js';

let t: TestApp;
let org: Org;
let accounts: AccountsService;
const OWNER_PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('web');
  accounts = new AccountsService({ db: t.db, identity: t.identity });
});
afterAll(() => t?.close());

/** A user with a password, as an accepted invitation or setup leaves them. */
async function userWithPassword(role: 'owner' | 'manager' | 'member' | 'guest', password = 'member password 1') {
  const user = await t.addUser(org, role);
  await t.db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(password)]);
  return { ...user, password };
}

describe('first-run setup', () => {
  let token: string;

  it('issues a setup token while no owner has a password, and refuses a wrong one with 403', async () => {
    const issued = await accounts.issueSetupTokens('fixed-setup-token-for-tests');
    expect(issued).toEqual([{ email: 'owner@web.test', orgName: 'web', token: 'fixed-setup-token-for-tests' }]);
    token = issued[0]!.token;
    const wrong = await new CookieSession(t).request('POST', '/api/v0/session/setup', {
      body: { token: 'not-the-setup-token-at-all', password: OWNER_PASSWORD },
    });
    expectErrorObject(wrong, 403);
  });

  it('sets the owner password once, signs them in with a __Host- cookie, and then locks', async () => {
    const browser = new CookieSession(t);
    const res = await browser.request('POST', '/api/v0/session/setup', { body: { token, password: OWNER_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ principalId: org.ownerId, role: 'owner', credential: 'session' });
    const cookie = setCookies(res).get('__Host-orgctl_session')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Secure/);
    const me = await browser.request('GET', '/api/v0/me');
    expect(me.body).toMatchObject({ principalId: org.ownerId, credential: { type: 'session' } });

    const again = await new CookieSession(t).request('POST', '/api/v0/session/setup', { body: { token, password: 'attacker password' } });
    expectErrorObject(again, 403);
    expect(await accounts.issueSetupTokens()).toEqual([]);
    expect((await new CookieSession(t).login('owner@web.test', OWNER_PASSWORD)).status).toBe(200);
  });

  it('stores only a hash of the session token', async () => {
    const browser = new CookieSession(t);
    await browser.login('owner@web.test', OWNER_PASSWORD);
    const token = browser.cookies.get('__Host-orgctl_session')!;
    const rows = await t.db.query<{ token_hash: string }>(`SELECT token_hash FROM sessions`);
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
  });
});

describe('sign-in', () => {
  it('refuses a wrong password and an unknown email alike with 401', async () => {
    const wrong = expectErrorObject(await new CookieSession(t).login('owner@web.test', 'wrong password!'), 401);
    const unknown = expectErrorObject(await new CookieSession(t).login('nobody@web.test', 'wrong password!'), 401);
    expect(wrong.detail).toBe(unknown.detail);
  });

  it('rotates the session at sign-in: the cookie the browser had no longer works', async () => {
    const browser = new CookieSession(t);
    await browser.login('owner@web.test', OWNER_PASSWORD);
    const first = browser.cookieHeader();
    await browser.login('owner@web.test', OWNER_PASSWORD);
    expect(browser.cookieHeader()).not.toBe(first);
    expectErrorObject(await t.request('GET', '/api/v0/me', { headers: { cookie: first } }), 401);
    expect((await browser.request('GET', '/api/v0/me')).status).toBe(200);
  });

  it('past 5 failed sign-ins an account waits (429 with Retry-After) instead of being locked (sign-in-throttle.test.ts has the rest)', async () => {
    const victim = await userWithPassword('member');
    for (let i = 0; i < 5; i++) expect((await new CookieSession(t).login(victim.email, 'guess number ' + i)).status).toBe(401);
    const limited = expectErrorObject(await new CookieSession(t).login(victim.email, victim.password), 429);
    expect(limited.detail).toMatch(/Too many failed sign-ins/);
    const res = await new CookieSession(t).login(victim.email, victim.password);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(1);
  });

  it('a successful sign-in resets the account: failures before it do not bring the wait nearer', async () => {
    const user = await userWithPassword('member');
    // (Failures also count against the address, 20 free for this whole file: few here.)
    for (let i = 0; i < 4; i++) expect((await new CookieSession(t).login(user.email, 'guess number ' + i)).status).toBe(401);
    expect((await new CookieSession(t).login(user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await new CookieSession(t).login(user.email, 'guess number ' + i)).status).toBe(401);
    expect((await new CookieSession(t).login(user.email, user.password)).status).toBe(200);
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await new CookieSession(t).request('POST', '/api/v0/session/login', {
      body: { email: 'owner@web.test', password: OWNER_PASSWORD },
      site: 'cross-site',
    });
    expectErrorObject(res, 403);
  });

  it('GET /api/v0/session answers who is signed in and the CSRF token; logout ends the session', async () => {
    const browser = new CookieSession(t);
    const login = await browser.login('owner@web.test', OWNER_PASSWORD);
    const session = await browser.request('GET', '/api/v0/session');
    expect(session.body).toMatchObject({
      principalId: org.ownerId,
      role: 'owner',
      credential: 'session',
      csrfToken: (login.body as { csrfToken: string }).csrfToken,
    });
    const cookies = browser.cookieHeader();
    expect((await browser.request('POST', '/api/v0/session/logout')).status).toBe(204);
    expectErrorObject(await t.request('GET', '/api/v0/session', { headers: { cookie: cookies } }), 401);
  });
});

describe('cookie-authenticated writes', () => {
  let browser: CookieSession;
  beforeAll(async () => {
    browser = new CookieSession(t);
    await browser.login('owner@web.test', OWNER_PASSWORD);
  });

  it('refuse a write without Sec-Fetch-Site or Origin, from another site, or without the right CSRF header (403)', async () => {
    const body = { name: 'from a page' };
    expectErrorObject(await browser.request('POST', '/api/v0/api-keys', { body, site: null }), 403);
    expectErrorObject(await browser.request('POST', '/api/v0/api-keys', { body, site: 'cross-site' }), 403);
    expectErrorObject(await browser.request('POST', '/api/v0/api-keys', { body, site: 'same-site' }), 403);
    expectErrorObject(await browser.request('POST', '/api/v0/api-keys', { body, csrf: null }), 403);
    expectErrorObject(await browser.request('POST', '/api/v0/api-keys', { body, csrf: 'x'.repeat(43) }), 403);
    const keys = await t.request<{ apiKeys: { name: string }[] }>('GET', '/api/v0/api-keys', { key: org.ownerKey });
    expect(keys.body.apiKeys.some((k) => k.name === 'from a page')).toBe(false);
  });

  it('accept a same-origin write with the CSRF header, as the same principal as a key', async () => {
    const res = await browser.request<{ key: string; principalId: string }>('POST', '/api/v0/api-keys', { body: { name: 'from a page' } });
    expect(res.status).toBe(201);
    expect(res.body.principalId).toBe(org.ownerId);
    const me = await t.request('GET', '/api/v0/me', { key: res.body.key });
    expect(me.body).toMatchObject({ principalId: org.ownerId, role: 'owner' });
  });

  it('an Origin equal to the listener origin stands in for a missing Sec-Fetch-Site', async () => {
    const other = await browser.request('POST', '/api/v0/api-keys', { body: { name: 'by origin' }, site: null, headers: { origin: 'https://evil.example' } });
    expectErrorObject(other, 403);
    // An injected request reaches a socket of 127.0.0.1 without a port: that is its listener origin.
    const same = await browser.request('POST', '/api/v0/api-keys', { body: { name: 'by origin' }, site: null, headers: { origin: 'http://127.0.0.1' } });
    expect(same.status).toBe(201);
  });

  it('a bearer credential wins over the cookie, and needs no CSRF header', async () => {
    const member = await t.addUser(org, 'member');
    const res = await browser.request('GET', '/api/v1/analytics/activity?startDate=2026-01-01&endDate=2026-01-02', { key: member.key });
    expectErrorObject(res, 403);
    const write = await browser.request('POST', '/api/v0/api-keys', { key: member.key, body: { name: 'bearer' }, site: 'cross-site', csrf: null });
    expect(write.status).toBe(201);
  });

  it('never reads an API key from a cookie or the query string', async () => {
    expectErrorObject(await t.request('GET', '/api/v0/me', { headers: { cookie: `__Host-orgctl_session=${org.ownerKey}` } }), 401);
    expectErrorObject(await t.request('GET', `/api/v0/me?api_key=${org.ownerKey}&key=${org.ownerKey}`), 401);
  });
});

describe('session expiry', () => {
  it('ends a session idle for 12 hours, and one past its 14-day absolute expiry', async () => {
    const idle = new CookieSession(t);
    await idle.login('owner@web.test', OWNER_PASSWORD);
    expect((await idle.request('GET', '/api/v0/me')).status).toBe(200);
    const [row] = await t.db.query<{ id: string }>(`SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1`);
    await t.db.query(`UPDATE sessions SET last_seen_at = now() - interval '12 hours 1 minute' WHERE id = $1`, [row!.id]);
    expectErrorObject(await idle.request('GET', '/api/v0/me'), 401);

    const old = new CookieSession(t);
    await old.login('owner@web.test', OWNER_PASSWORD);
    const [row2] = await t.db.query<{ id: string; expires_at: Date; created_at: Date }>(
      `SELECT id, expires_at, created_at FROM sessions ORDER BY created_at DESC LIMIT 1`,
    );
    expect(row2!.expires_at.getTime() - row2!.created_at.getTime()).toBe(14 * 24 * 3_600_000);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [row2!.id]);
    expectErrorObject(await old.request('GET', '/api/v0/me'), 401);
  });
});

describe('own sessions and password', () => {
  it('lists own sessions with the current one marked, and revokes another at once', async () => {
    const user = await userWithPassword('member');
    const laptop = new CookieSession(t);
    const phone = new CookieSession(t);
    await laptop.login(user.email, user.password);
    await phone.login(user.email, user.password);
    const list = await laptop.request<{ sessions: { id: string; current: boolean }[] }>('GET', '/api/v0/sessions');
    expect(list.body.sessions).toHaveLength(2);
    const other = list.body.sessions.find((s) => !s.current)!;
    expect((await laptop.request('DELETE', `/api/v0/sessions/${other.id}`)).status).toBe(204);
    expectErrorObject(await phone.request('GET', '/api/v0/me'), 401);
    expectErrorObject(await laptop.request('DELETE', `/api/v0/sessions/${other.id}`), 404);
  });

  it('a password change needs the current password and ends every other session', async () => {
    const user = await userWithPassword('member');
    const here = new CookieSession(t);
    const there = new CookieSession(t);
    await here.login(user.email, user.password);
    await there.login(user.email, user.password);
    expectErrorObject(
      await here.request('PUT', '/api/v0/me/password', { body: { currentPassword: 'not my password', newPassword: 'a brand new password' } }),
      403,
    );
    const changed = await here.request('PUT', '/api/v0/me/password', { body: { currentPassword: user.password, newPassword: 'a brand new password' } });
    expect(changed.status).toBe(204);
    expectErrorObject(await there.request('GET', '/api/v0/me'), 401);
    expect((await here.request('GET', '/api/v0/me')).status).toBe(200);
    expectErrorObject(await new CookieSession(t).login(user.email, user.password), 401);
    expect((await new CookieSession(t).login(user.email, 'a brand new password')).status).toBe(200);
  });
});
