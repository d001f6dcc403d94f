import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org } from '../../helpers/test-app.js';
import { waitFor } from '../../helpers/wait.js';

// The clock stands still, so a credential cached by one request is still within its cache
// lifetime at the next: only an eviction can make the next request see the change.
const clock = new TestClock();
const JWT_SECRET = 'access-changes-secret-of-at-least-32-chars';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start({ jwtSecret: JWT_SECRET }, { clock });
  org = await t.createOrg('changes');
});
afterAll(() => t?.close());

const MANAGERS_ONLY = '/api/v0/organization/members';

const jwtFor = (userId: string) =>
  new SignJWT({ sub: userId, org_id: org.orgId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
    .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 600)
    .sign(new TextEncoder().encode(JWT_SECRET));

describe('a role change or removal takes effect on the very next request of this process', () => {
  it('removing a member: their cached key answers 401 at once', async () => {
    const member = await t.addUser(org, 'member');
    expect((await t.request('GET', '/api/v0/me', { key: member.key })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v0/organization/members/${member.id}`, { key: org.ownerKey })).status).toBe(204);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: member.key }), 401);
  });

  it('demoting a manager: their cached key answers 403 on a managers-only route at once', async () => {
    const manager = await t.addUser(org, 'manager');
    expect((await t.request('GET', MANAGERS_ONLY, { key: manager.key })).status).toBe(200);
    expect((await t.request('PATCH', `/api/v0/organization/members/${manager.id}`, { key: org.ownerKey, body: { role: 'member' } })).status).toBe(200);
    expectErrorObject(await t.request('GET', MANAGERS_ONLY, { key: manager.key }), 403);
    expect((await t.request('GET', '/api/v0/me', { key: manager.key })).body).toMatchObject({ role: 'member' });
  });

  it('promoting a member: their cached key acts with the new role at once', async () => {
    const member = await t.addUser(org, 'member');
    expectErrorObject(await t.request('GET', MANAGERS_ONLY, { key: member.key }), 403);
    expect((await t.request('GET', '/api/v0/me', { key: member.key })).body).toMatchObject({ role: 'member' });
    expect((await t.request('PATCH', `/api/v0/organization/members/${member.id}`, { key: org.ownerKey, body: { role: 'manager' } })).status).toBe(200);
    expect((await t.request('GET', MANAGERS_ONLY, { key: member.key })).status).toBe(200);
  });

  it('a change made through the identity service (the CLI path) evicts too', async () => {
    const manager = await t.addUser(org, 'manager');
    const other = await t.addUser(org, 'member');
    expect((await t.request('GET', MANAGERS_ONLY, { key: manager.key })).status).toBe(200);
    expect((await t.request('GET', '/api/v0/me', { key: other.key })).status).toBe(200);
    await t.operatorIdentity.setUserRole(org.orgId, manager.email, 'guest');
    await t.operatorIdentity.removeUser(org.orgId, other.email);
    expectErrorObject(await t.request('GET', MANAGERS_ONLY, { key: manager.key }), 403);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: other.key }), 401);
  });

  it('a cached JWT of a demoted or removed user is re-read at once', async () => {
    const manager = await t.addUser(org, 'manager');
    const member = await t.addUser(org, 'member');
    const managerJwt = await jwtFor(manager.id);
    const memberJwt = await jwtFor(member.id);
    expect((await t.request('GET', MANAGERS_ONLY, { key: managerJwt })).status).toBe(200);
    expect((await t.request('GET', '/api/v0/me', { key: memberJwt })).status).toBe(200);
    expect((await t.request('PATCH', `/api/v0/organization/members/${manager.id}`, { key: org.ownerKey, body: { role: 'member' } })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v0/organization/members/${member.id}`, { key: org.ownerKey })).status).toBe(204);
    expectErrorObject(await t.request('GET', MANAGERS_ONLY, { key: managerJwt }), 403);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: memberJwt }), 401);
  });

  it('another process on the database sees the change once its cache lifetime (AUTH_CACHE_TTL_MS) has passed', async () => {
    const other = await t.otherProcess({ jwtSecret: JWT_SECRET });
    try {
      const manager = await t.addUser(org, 'manager');
      const call = () => other.inject({ method: 'GET', url: MANAGERS_ONLY, headers: { authorization: `Bearer ${manager.key}` } });
      expect((await call()).statusCode).toBe(200);
      await t.operatorIdentity.setUserRole(org.orgId, manager.email, 'member');
      clock.advance(1000);
      // On the embedded database the other process's stale entry may answer once while it is re-read.
      const first = (await call()).statusCode;
      expect([200, 403]).toContain(first);
      await waitFor(async () => ((await call()).statusCode === 403 ? true : undefined), 5000, 'the other process to see the demotion');
    } finally {
      await other.close();
    }
  });
});
