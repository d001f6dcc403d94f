import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/core/accounts/secrets.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { expectScimError, PATCH_OP, scim, scimToken, USER, type ScimList } from './scim-client.js';

// The request sequence of Microsoft Entra ID's SCIM provisioning documentation ("Develop a SCIM
// endpoint", user operations), replayed over HTTP, with Entra's ways: capitalised ops, paths
// with value filters, `active` as the string "False", the enterprise extension it always sends.
// Analytics serves days before today: the usage is yesterday's.
const YESTERDAY_MS = Date.now() - 86_400_000;
const PASSWORD = 'correct horse battery staple';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
let t: TestApp;
let org: Org;
let call: ReturnType<typeof scim>;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('entra-org');
  call = scim(t, await scimToken(t, org, 'Entra ID'));
});
afterAll(() => t.close());

describe('Entra ID user provisioning', () => {
  let id: string;
  let sessionCookie: string;

  it('creates a user after an empty lookup, ignoring the attributes orgctl does not keep', async () => {
    const lookup = await call<ScimList>(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.test"')}`,
    );
    expect(lookup.body.totalResults).toBe(0);
    const res = await call('POST', '/Users', {
      schemas: [USER, ENTERPRISE],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.test',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      [ENTERPRISE]: { department: 'Research', manager: { value: 'abc' } },
    });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({
      userName: 'test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.test',
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      active: true,
      name: { givenName: 'givenName', familyName: 'familyName' },
    });
    // A password for the person (SCIM sets none), so the test can hold a session of theirs.
    await t.db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [id, await hashPassword(PASSWORD)]);
    // Usage of theirs, ingested before the deactivation.
    const sent = await t.request('POST', '/api/v1/telemetry/events', {
      key: org.ownerKey,
      body: {
        events: [
          {
            id: 'entra-1',
            type: 'model_request',
            timestamp: YESTERDAY_MS,
            sessionId: 's',
            client: 'terminal-ui',
            userId: id,
            model: 'claude-sonnet-4',
            tier: 'standard',
            inputTokens: 1000,
            outputTokens: 10,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
          },
        ],
      },
    });
    expect(sent.status).toBe(202);
  });

  it('finds the user by externalId and by userName in another case', async () => {
    const byExternal = await call<ScimList>('GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
    expect(byExternal.body.Resources.map((u) => u.id)).toEqual([id]);
    const byName = await call<ScimList>(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "TEST_USER_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.test"')}`,
    );
    expect(byName.body.Resources.map((u) => u.id)).toEqual([id]);
    // externalId is case-exact (RFC 7643): another case finds nothing.
    const wrongCase = await call<ScimList>('GET', `/Users?filter=${encodeURIComponent('externalId eq "0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF"')}`);
    expect(wrongCase.body.totalResults).toBe(0);
  });

  it('updates attributes with Replace ops on paths, the email one ignored (userName is the email)', async () => {
    const res = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Sales' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: { familyName: 'updatedFamilyName', givenName: 'givenName' },
      userName: 'test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.test',
    });
  });

  it('updates userName and several attributes sent as one value object with path keys', async () => {
    const res = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { userName: 'barbara@contoso.test', 'name.givenName': 'Barbara', displayName: 'Barbara Jensen' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userName: 'barbara@contoso.test', name: { givenName: 'Barbara' }, displayName: 'Barbara Jensen' });
    expect(await t.identity.findPrincipal(org.orgId, { id })).toMatchObject({ email: 'barbara@contoso.test', name: 'Barbara Jensen' });
  });

  it('signs the person in, then disables them with active "False": the session ends at once', async () => {
    const login = await t.request('POST', '/api/v0/session/login', { body: { email: 'barbara@contoso.test', password: PASSWORD } });
    expect(login.status).toBe(200);
    sessionCookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect((await t.request('GET', '/api/v0/me', { headers: { cookie: sessionCookie } })).status).toBe(200);

    const res = await call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
    expectErrorObject(await t.request('GET', '/api/v0/me', { headers: { cookie: sessionCookie } }), 401);
    expect((await t.db.query(`SELECT 1 FROM sessions WHERE principal_id = $1`, [id])).length).toBe(0);
  });

  it('keeps the history: usage recorded before the deactivation is still in analytics, under the same id', async () => {
    const day = new Date(YESTERDAY_MS).toISOString().slice(0, 10);
    const tokens = await t.request<{ data: { by_user: { user_id: string; billable_tokens: number }[] }[] }>(
      'GET',
      `/api/v1/analytics/tokens?startDate=${day}&endDate=${day}`,
      { key: org.ownerKey },
    );
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.flatMap((d) => d.by_user)).toEqual([expect.objectContaining({ user_id: id })]);
  });

  it('deletes the user: 204, then a lookup finds nothing', async () => {
    expect((await call('DELETE', `/Users/${id}`)).status).toBe(204);
    expectScimError(await call('DELETE', `/Users/${id}`), 404);
    const lookup = await call<ScimList>('GET', `/Users?filter=${encodeURIComponent('userName eq "barbara@contoso.test"')}`);
    expect(lookup.body.totalResults).toBe(0);
  });

  it('refuses to deactivate the last owner: 409 mutability, the owner stays', async () => {
    const res = await call('PATCH', `/Users/${org.ownerId}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: false }] });
    expectScimError(res, 409, 'mutability');
    expect((await t.request('GET', '/api/v0/me', { key: org.ownerKey })).status).toBe(200);
  });
});
