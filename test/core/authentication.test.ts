import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { generateApiKey } from '../../src/core/identity/api-key-format.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
// Expiries pass when the test moves this clock, not after a sleep; tokens are dated by it too.
const clock = new TestClock();
const nowSec = () => Math.floor(clock.now().getTime() / 1000);

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start({ jwtSecret: JWT_SECRET }, { clock });
  org = await t.createOrg('auth-org');
});
afterAll(() => t?.close());

const jwt = (claims: Record<string, unknown>, secret = JWT_SECRET) => {
  let builder = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(nowSec());
  if (claims.exp === undefined) builder = builder.setExpirationTime(nowSec() + 300);
  return builder.sign(new TextEncoder().encode(secret));
};

describe('a valid credential', () => {
  it('an API key answers /me with its principal, role and organization', async () => {
    const res = await t.request('GET', '/api/v0/me', { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ principalId: org.ownerId, role: 'owner', kind: 'user', organization: { id: org.orgId, name: 'auth-org' } });
  });

  it('a JWT with sub and org_id is accepted, and its role comes from the database', async () => {
    const member = await t.addUser(org, 'member');
    const token = await jwt({ sub: member.id, org_id: org.orgId, role: 'owner' });
    const res = await t.request('GET', '/api/v0/me', { key: token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ principalId: member.id, role: 'member', credential: { type: 'jwt' } });
  });
});

describe('401 for every missing or invalid credential, with the same error object', () => {
  const cases: [string, () => Promise<Record<string, string>>][] = [
    ['no Authorization header', async () => ({})],
    ['"Bearer" with nothing after it', async () => ({ authorization: 'Bearer ' })],
    ['a scheme other than Bearer', async () => ({ authorization: `Basic ${org.ownerKey}` })],
    ['a well-formed key that was never issued', async () => ({ authorization: `Bearer ${generateApiKey()}` })],
    ['a random string', async () => ({ authorization: 'Bearer not-a-key-at-all' })],
    [
      'a key with a bad checksum',
      async () => {
        const k = org.ownerKey;
        const last = k.at(-1) === 'a' ? 'b' : 'a';
        return { authorization: `Bearer ${k.slice(0, -1)}${last}` };
      },
    ],
    [
      'a JWT with alg none',
      async () => ({ authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: org.ownerId, org_id: org.orgId, exp: nowSec() + 300 })}.` }),
    ],
    [
      'a JWT without exp',
      async () => ({
        authorization: `Bearer ${await new SignJWT({ sub: org.ownerId, org_id: org.orgId }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(JWT_SECRET))}`,
      }),
    ],
    ['an expired JWT', async () => ({ authorization: `Bearer ${await jwt({ sub: org.ownerId, org_id: org.orgId, exp: nowSec() - 10 })}` })],
    [
      'a JWT signed with the wrong secret',
      async () => ({ authorization: `Bearer ${await jwt({ sub: org.ownerId, org_id: org.orgId }, 'another-secret-that-is-also-32-characters')}` }),
    ],
    [
      'a JWT naming a user of another organization',
      async () => ({ authorization: `Bearer ${await jwt({ sub: org.ownerId, org_id: '00000000-0000-4000-8000-000000000000' })}` }),
    ],
    ['a JWT whose sub is not a user id', async () => ({ authorization: `Bearer ${await jwt({ sub: 'admin', org_id: org.orgId })}` })],
  ];

  it.each(cases)('%s', async (_name, headers) => {
    const res = await t.request('GET', '/api/v0/organization/usage/limits/global', { headers: await headers() });
    const err = expectErrorObject(res, 401);
    expect(err.title).toBe('Unauthorized');
    expect(err.detail).toBe('Missing or invalid credential. Send "Authorization: Bearer <API key or JWT>".');
  });

  it('a revoked key is refused right after the revoke', async () => {
    const user = await t.addUser(org, 'manager');
    expect((await t.request('GET', '/api/v0/me', { key: user.key })).status).toBe(200); // now cached
    const { body } = await t.request<{ apiKeys: { id: string }[] }>('GET', '/api/v0/api-keys', { key: user.key });
    const del = await t.request('DELETE', `/api/v0/api-keys/${body.apiKeys[0]!.id}`, { key: user.key });
    expect(del.status).toBe(204);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: user.key }), 401);
  });

  it('a key is refused once its expiry has passed, even though it was cached', async () => {
    const created = await t.request<{ key: string }>('POST', '/api/v0/api-keys', {
      key: org.ownerKey,
      body: { name: 'short', expiresAt: clock.now().getTime() + 700 },
    });
    expect(created.status).toBe(201);
    expect((await t.request('GET', '/api/v0/me', { key: created.body.key })).status).toBe(200);
    clock.advance(699);
    expect((await t.request('GET', '/api/v0/me', { key: created.body.key })).status).toBe(200);
    clock.advance(1);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: created.body.key }), 401);
  });

  it('a JWT is refused once its exp has passed, even though it was cached', async () => {
    const token = await jwt({ sub: org.ownerId, org_id: org.orgId, exp: nowSec() + 60 });
    expect((await t.request('GET', '/api/v0/me', { key: token })).status).toBe(200);
    clock.advance(61_000);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: token }), 401);
  });

  it('a JWT is refused when JWT verification is not configured', async () => {
    const plain = await TestApp.start();
    try {
      const o = await plain.createOrg('nojwt');
      const token = await jwt({ sub: o.ownerId, org_id: o.orgId });
      expectErrorObject(await plain.request('GET', '/api/v0/me', { key: token }), 401);
    } finally {
      await plain.close();
    }
  });
});
