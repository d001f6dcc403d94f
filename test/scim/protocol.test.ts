import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { expectScimError, PATCH_OP, scim, scimToken, USER, type ScimList, type ScimResource } from './scim-client.js';

// Filters, PATCH edge cases, pagination, ETags, discovery and the error format of /scim/v2.
let t: TestApp;
let org: Org;
let call: ReturnType<typeof scim>;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('protocol-org');
  token = await scimToken(t, org);
  call = scim(t, token);
  for (const [name, family, ext] of [
    ['alice', 'Archer', 'ext-A'],
    ['bruno', 'Baker', 'ext-B'],
    ['carla', 'Cook', 'ext-C'],
  ] as const) {
    const res = await call('POST', '/Users', {
      schemas: [USER],
      userName: `${name}@proto.test`,
      name: { givenName: name, familyName: family },
      externalId: ext,
    });
    ids[name] = res.body.id;
  }
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await call<ScimList>('GET', `/Users?${query}`);
  if (res.status !== 200) throw new Error(res.raw);
  return res.body;
};
const names = (l: ScimList) => l.Resources.map((r) => r.userName);
const filter = (f: string) => `filter=${encodeURIComponent(f)}`;

describe('filters', () => {
  it('compares userName, displayName and names without case, externalId and id exactly', async () => {
    expect(names(await list(filter('userName eq "ALICE@proto.test"')))).toEqual(['alice@proto.test']);
    expect(names(await list(filter('name.familyName eq "baker"')))).toEqual(['bruno@proto.test']);
    expect(names(await list(filter('externalId eq "ext-C"')))).toEqual(['carla@proto.test']);
    expect((await list(filter('externalId eq "EXT-C"'))).totalResults).toBe(0);
    expect(names(await list(filter(`id eq "${ids.bruno}"`)))).toEqual(['bruno@proto.test']);
  });

  it('takes the other operators, logic and grouping', async () => {
    expect(names(await list(filter('userName sw "a" or userName ew "carla@proto.test"')))).toEqual(['alice@proto.test', 'carla@proto.test']);
    expect(names(await list(filter('userName co "@proto." and not (name.givenName eq "BRUNO")')))).toEqual(['alice@proto.test', 'carla@proto.test']);
    expect(names(await list(filter('externalId pr')))).toEqual(['alice@proto.test', 'bruno@proto.test', 'carla@proto.test']);
    expect(names(await list(filter('emails[type eq "work" and value co "bruno"]')))).toEqual(['bruno@proto.test']);
    expect(names(await list(filter('active eq true and userName ew "@protocol-org.test"')))).toEqual(['owner@protocol-org.test']);
  });

  it('answers a filter that does not parse with 400 invalidFilter', async () => {
    expectScimError(await call('GET', `/Users?${filter('userName eq')}`), 400, 'invalidFilter');
    expectScimError(await call('GET', `/Groups?${filter('displayName xx "a"')}`), 400, 'invalidFilter');
  });
});

describe('pagination', () => {
  it('pages with 1-based startIndex and count; totalResults counts every match', async () => {
    const all = await list('');
    expect(all.totalResults).toBe(4);
    const page = await list('startIndex=2&count=2');
    expect(page).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((r) => r.id)).toEqual(all.Resources.slice(1, 3).map((r) => r.id));
    expect((await list('startIndex=4&count=10')).itemsPerPage).toBe(1);
    expect((await list('startIndex=9')).Resources).toEqual([]);
  });

  it('takes a startIndex below 1 as 1 and a negative count as 0, as RFC 7644 says', async () => {
    expect(await list('startIndex=0&count=1')).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
    expect(await list('count=-5')).toMatchObject({ totalResults: 4, itemsPerPage: 0, Resources: [] });
    expectScimError(await call('GET', '/Users?count=many'), 400, 'invalidValue');
  });

  it('returns only the attributes asked for, with id and schemas always', async () => {
    const res = await list(`attributes=userName&${filter('userName eq "alice@proto.test"')}`);
    expect(Object.keys(res.Resources[0]!).sort()).toEqual(['id', 'meta', 'schemas', 'userName']);
  });
});

describe('PATCH edge cases', () => {
  const patch = (id: string, Operations: unknown[]) => call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations });

  it('applies operations in order, removes an attribute, and adds the name as an object', async () => {
    const res = await patch(ids.carla!, [
      { op: 'remove', path: 'externalId' },
      { op: 'add', path: 'name', value: { familyName: 'Cooke' } },
      { op: 'replace', path: 'displayName', value: 'First' },
      { op: 'replace', path: 'displayName', value: 'Carla Cooke' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('externalId');
    expect(res.body).toMatchObject({ name: { givenName: 'carla', familyName: 'Cooke' }, displayName: 'Carla Cooke' });
  });

  it('takes the schema URN in a path', async () => {
    const res = await patch(ids.carla!, [{ op: 'replace', path: `${USER}:name.givenName`, value: 'Carla' }]);
    expect((res.body.name as { givenName: string }).givenName).toBe('Carla');
  });

  it('refuses what cannot be: an unknown op, removing userName, a non-boolean active, a bad path, no Operations', async () => {
    expectScimError(await patch(ids.carla!, [{ op: 'move', path: 'displayName', value: 'x' }]), 400, 'invalidSyntax');
    expectScimError(await patch(ids.carla!, [{ op: 'remove', path: 'userName' }]), 400, 'invalidValue');
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'active', value: 'maybe' }]), 400, 'invalidValue');
    expectScimError(await patch(ids.carla!, [{ op: 'remove' }]), 400, 'noTarget');
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'emails[type eq "work"' }]), 400, 'invalidPath');
    expectScimError(await call('PATCH', `/Users/${ids.carla}`, { schemas: [PATCH_OP] }), 400);
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'userName', value: 'not an email' }]), 400, 'invalidValue');
    // Nothing of the refused requests was kept.
    expect((await call('GET', `/Users/${ids.carla}`)).body).toMatchObject({ userName: 'carla@proto.test', active: true, displayName: 'Carla Cooke' });
  });

  it('bounds every name and externalId as PATCH /me bounds a name, whether POST, PUT or PATCH writes it', async () => {
    const long = 'x'.repeat(201);
    const posted = (over: Record<string, unknown>) => call('POST', '/Users', { schemas: [USER], userName: 'dora@proto.test', ...over });
    for (const [over, what] of [
      [{ displayName: long }, 'displayName'],
      [{ name: { givenName: long } }, 'name.givenName'],
      [{ name: { familyName: long } }, 'name.familyName'],
      [{ externalId: long }, 'externalId'],
    ] as const) {
      expect(expectScimError(await posted(over), 400, 'invalidValue').detail).toBe(`${what} must be at most 200 characters (it has 201).`);
    }
    expect((await call('GET', '/Users?filter=userName eq "dora@proto.test"')).body).toMatchObject({ totalResults: 0 });
    const huge = 'y'.repeat(900_000);
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'name.familyName', value: huge }]), 400, 'invalidValue');
    expectScimError(await call('PUT', `/Users/${ids.carla}`, { schemas: [USER], userName: 'carla@proto.test', externalId: long }), 400, 'invalidValue');
    const kept = await call('GET', `/Users/${ids.carla}`);
    expect(kept.body).toMatchObject({ displayName: 'Carla Cooke' });
    expect(kept.raw.length).toBeLessThan(2000);
    // 200 is still a name.
    expect((await patch(ids.carla!, [{ op: 'replace', path: 'name.givenName', value: 'c'.repeat(200) }])).status).toBe(200);
    expect((await patch(ids.carla!, [{ op: 'replace', path: 'name.givenName', value: 'carla' }])).status).toBe(200);
  });

  it('answers a userName taken by another user with 409 uniqueness', async () => {
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'userName', value: 'Alice@proto.test' }]), 409, 'uniqueness');
  });

  it('honours If-Match: a stale version gets 412 and changes nothing', async () => {
    const current = await call('GET', `/Users/${ids.bruno}`);
    const stale = await patch(ids.bruno!, [{ op: 'replace', path: 'displayName', value: 'Bruno B' }]);
    expect(stale.headers.etag).not.toBe(current.headers.etag);
    const res = await call(
      'PATCH',
      `/Users/${ids.bruno}`,
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Lost' }] },
      {
        'if-match': current.headers.etag as string,
      },
    );
    expectScimError(res, 412);
    expect((await call('GET', `/Users/${ids.bruno}`)).body.displayName).toBe('Bruno B');
  });
});

describe('changes made in orgctl', () => {
  it('reads a person’s own change of email as their userName, and frees the old email', async () => {
    const { secret } = await t.operatorIdentity.createKey(org.orgId, { id: ids.alice! });
    expect((await t.request('PATCH', '/api/v0/me', { key: secret, body: { email: 'alice.new@proto.test' } })).status).toBe(200);
    expect((await call('GET', `/Users/${ids.alice}`)).body).toMatchObject({ userName: 'alice.new@proto.test', externalId: 'ext-A' });
    expect(names(await list(filter('userName eq "alice.new@proto.test"')))).toEqual(['alice.new@proto.test']);
    expect((await list(filter('userName eq "alice@proto.test"'))).totalResults).toBe(0);
    const again = await call('POST', '/Users', { schemas: [USER], userName: 'alice@proto.test' });
    expect(again.status).toBe(201);
    expect((await call('DELETE', `/Users/${again.body.id}`)).status).toBe(204);
  });

  it('keeps a deactivated user’s userName taken until they are deleted', async () => {
    const patch = (id: string, Operations: unknown[]) => call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations });
    expect((await patch(ids.bruno!, [{ op: 'replace', path: 'active', value: false }])).status).toBe(200);
    expectScimError(await call('POST', '/Users', { schemas: [USER], userName: 'bruno@proto.test' }), 409, 'uniqueness');
    expectScimError(await patch(ids.carla!, [{ op: 'replace', path: 'userName', value: 'bruno@proto.test' }]), 409, 'uniqueness');
    expect((await patch(ids.bruno!, [{ op: 'replace', path: 'active', value: true }])).body).toMatchObject({ active: true, userName: 'bruno@proto.test' });
  });
});

describe('discovery and errors', () => {
  it('describes the service: ServiceProviderConfig, ResourceTypes and Schemas, without a token', async () => {
    const config = await t.request<Record<string, unknown>>('GET', '/scim/v2/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: true },
      bulk: { supported: false },
    });
    const types = await t.request<ScimList>('GET', '/scim/v2/ResourceTypes');
    expect(types.body.Resources.map((r) => r.id)).toEqual(['User', 'Group']);
    const schemas = await t.request<ScimList>('GET', '/scim/v2/Schemas');
    expect(schemas.body.Resources.map((r) => r.id)).toEqual([USER, 'urn:ietf:params:scim:schemas:core:2.0:Group']);
    expect((await t.request<ScimResource>('GET', `/scim/v2/Schemas/${USER}`)).body.name).toBe('User');
    expectScimError(await t.request('GET', '/scim/v2/ResourceTypes/Computer'), 404);
  });

  it('answers SCIM errors for unknown SCIM routes, malformed JSON and wrong ids, and the usual error object elsewhere', async () => {
    expectScimError(await call('GET', '/Computers'), 404);
    expectScimError(
      await t.request('POST', '/scim/v2/Users', { key: token, rawBody: '{"userName":', headers: { 'content-type': 'application/scim+json' } }),
      400,
      'invalidSyntax',
    );
    expectScimError(
      await t.request('POST', '/scim/v2/Users', {
        key: token,
        rawBody: '{"userName":"nul\\u0000@proto.test"}',
        headers: { 'content-type': 'application/scim+json' },
      }),
      400,
      'invalidValue',
    );
    expectScimError(await t.request('POST', '/scim/v2/Users', { key: token, rawBody: 'userName=x', headers: { 'content-type': 'text/plain' } }), 415);
    expectScimError(await call('GET', '/Users/not-a-uuid'), 404);
    expectScimError(await call('GET', '/Groups/2b0d8a4e-0000-4000-8000-000000000000'), 404);
    expectErrorObject(await t.request('GET', '/api/v0/organization/teams/2b0d8a4e-0000-4000-8000-000000000000', { key: org.ownerKey }), 404);
  });

  it('never shows a token after its creation: the list holds only a prefix', async () => {
    const res = await t.request<{ tokens: Record<string, unknown>[] }>('GET', '/api/v0/organization/scim/tokens', { key: org.ownerKey });
    expect(res.raw).not.toContain(token);
    expect(res.body.tokens[0]).toEqual({
      id: expect.any(String),
      name: 'Okta',
      prefix: token.slice(0, 10),
      createdAt: expect.any(Number),
      revokedAt: null,
      lastUsedAt: expect.any(Number),
    });
  });

  it('lets owners only manage tokens', async () => {
    const manager = await t.addUser(org, 'manager');
    expectErrorObject(await t.request('POST', '/api/v0/organization/scim/tokens', { key: manager.key, body: {} }), 403);
    expectErrorObject(await t.request('GET', '/api/v0/organization/scim/tokens', { key: manager.key }), 403);
    expectErrorObject(await t.request('DELETE', '/api/v0/organization/scim/tokens/2b0d8a4e-0000-4000-8000-000000000000', { key: org.ownerKey }), 404);
  });
});
