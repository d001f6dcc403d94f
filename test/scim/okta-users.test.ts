import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { expectScimError, PATCH_OP, scim, scimToken, USER, type ScimList, type ScimResource } from './scim-client.js';

// The request sequence of Okta's SCIM 2.0 provisioning guide for users, replayed over HTTP:
// look the user up by userName, create, read, update the profile with PUT, deactivate and
// reactivate with PATCH (a value object without a path), then the effects on orgctl's side.
let t: TestApp;
let org: Org;
let token: string;
let call: ReturnType<typeof scim>;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('okta-org');
  token = await scimToken(t, org);
  call = scim(t, token);
});
afterAll(() => t.close());

describe('Okta user provisioning', () => {
  let id: string;
  let personKey: string;

  it('finds no user by userName before creating one', async () => {
    const res = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "Test.User@okta.local"')}&startIndex=1&count=100`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/scim\+json/);
    expect(res.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
  });

  it('creates the user: 201 with Location and ETag, an orgctl member with that email', async () => {
    const res = await call('POST', '/Users', {
      schemas: [USER],
      userName: 'Test.User@okta.local',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.headers.location).toBe(`http://localhost:80/scim/v2/Users/${id}`);
    expect(res.headers.etag).toBe(res.body.meta.version);
    expect(res.body).toMatchObject({
      schemas: [USER],
      userName: 'test.user@okta.local',
      externalId: '00ujl29u0le5T6Aj10h7',
      name: { givenName: 'Test', familyName: 'User', formatted: 'Test User' },
      displayName: 'Test User',
      emails: [{ value: 'test.user@okta.local', type: 'work', primary: true }],
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(res.raw).not.toContain('1mz050nq');
    const person = await t.identity.findPrincipal(org.orgId, { email: 'test.user@okta.local' });
    expect(person).toMatchObject({ id, role: 'member', name: 'Test User', kind: 'user' });
    personKey = (await t.operatorIdentity.createKey(org.orgId, { id })).secret;
  });

  it('refuses a second user with the same userName in any case: 409 uniqueness', async () => {
    expectScimError(await call('POST', '/Users', { schemas: [USER], userName: 'TEST.user@okta.local' }), 409, 'uniqueness');
  });

  it('reads the user, and answers 304 to If-None-Match with its ETag', async () => {
    const res = await call('GET', `/Users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.userName).toBe('test.user@okta.local');
    expect((await call('GET', `/Users/${id}`, undefined, { 'if-none-match': res.headers.etag as string })).status).toBe(304);
  });

  it('updates the profile with PUT: the new names and email are the person’s in orgctl', async () => {
    const res = await call('PUT', `/Users/${id}`, {
      schemas: [USER],
      id,
      userName: 'test.user.renamed@okta.local',
      name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user.renamed@okta.local', type: 'work' }],
      displayName: 'Another User',
      externalId: '00ujl29u0le5T6Aj10h7',
      active: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userName: 'test.user.renamed@okta.local', name: { givenName: 'Another' }, active: true });
    expect(await t.identity.findPrincipal(org.orgId, { id })).toMatchObject({ email: 'test.user.renamed@okta.local', name: 'Another User' });
    // Keys are bound to the id: the person's key still works.
    expect((await t.request('GET', '/api/v0/me', { key: personKey })).status).toBe(200);
  });

  it('deactivates with PATCH {active: false}: the key stops at once, the SCIM user stays readable as inactive', async () => {
    const res = await call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: personKey }), 401);
    expect(await t.identity.findPrincipal(org.orgId, { id })).toBeUndefined();
    const found = await call<ScimList>('GET', `/Users?filter=${encodeURIComponent('userName eq "test.user.renamed@okta.local"')}`);
    expect(found.body.Resources).toMatchObject([{ id, active: false }]);
  });

  it('reactivates with PATCH {active: true} under the same id, as a member; the old key stays revoked', async () => {
    const res = await call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, active: true, userName: 'test.user.renamed@okta.local' });
    expect(await t.identity.findPrincipal(org.orgId, { id })).toMatchObject({ id, role: 'member' });
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: personKey }), 401);
  });

  it('lists users that existed before SCIM, so Okta can match them by userName', async () => {
    const res = await call<ScimList>('GET', `/Users?filter=${encodeURIComponent('userName eq "owner@okta-org.test"')}`);
    expect(res.body.Resources).toMatchObject([{ id: org.ownerId, userName: 'owner@okta-org.test', active: true }]);
  });

  it('deletes the user: 204, then 404 in SCIM’s error format', async () => {
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(204);
    expectScimError(await call('GET', `/Users/${id}`), 404);
    expect(await t.identity.findPrincipal(org.orgId, { id })).toBeUndefined();
  });
});

describe('the SCIM token', () => {
  it('is the only credential of /scim/v2: none, an API key or a revoked token get 401 in SCIM’s format', async () => {
    expectScimError(await t.request('GET', '/scim/v2/Users'), 401);
    expectScimError(await t.request('GET', '/scim/v2/Users', { key: org.ownerKey }), 401);
    // Nor is a SCIM token an API key.
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: token }), 401);
    const other = await scimToken(t, org, 'to revoke');
    expect((await scim(t, other)('GET', '/Users')).status).toBe(200);
    const list = await t.request<{ tokens: { id: string; name: string }[] }>('GET', '/api/v0/organization/scim/tokens', { key: org.ownerKey });
    const revoked = list.body.tokens.find((k) => k.name === 'to revoke')!;
    expect((await t.request('DELETE', `/api/v0/organization/scim/tokens/${revoked.id}`, { key: org.ownerKey })).status).toBe(204);
    expectScimError(await scim(t, other)('GET', '/Users'), 401);
    expect((await call('GET', '/Users')).status).toBe(200);
  });

  it('acts for its own organization only', async () => {
    const otherOrg = await t.createOrg('okta-other');
    const otherToken = await scimToken(t, otherOrg);
    const res = await scim(t, otherToken)<ScimList>('GET', '/Users');
    expect(res.body.Resources.map((u: ScimResource) => u.userName)).toEqual(['owner@okta-other.test']);
    expectScimError(await scim(t, otherToken)('GET', `/Users/${org.ownerId}`), 404);
  });
});
