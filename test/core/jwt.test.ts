import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { TestClock } from '../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { onPostgres } from '../helpers/test-db.js';

// An identity provider publishing its signing key as a JWKS, as an external one would.
let jwksServer: Server;
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let t: TestApp;
let org: Org;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
  t = await TestApp.start({ jwtJwksUrl: url, jwtIssuer: 'https://idp.example.com', jwtAudience: 'orgctl' });
  org = await t.createOrg('jwks-org');
});
afterAll(async () => {
  await t?.close();
  jwksServer?.close();
});

const sign = (claims: Record<string, unknown>, header: { alg: string; kid?: string } = { alg: 'RS256', kid: 'k1' }) =>
  new SignJWT(claims).setProtectedHeader(header).setExpirationTime('5m').sign(privateKey);

describe('JWT verified against a JWKS, with issuer and audience', () => {
  it('accepts a token signed by the published key with the configured iss and aud', async () => {
    const token = await sign({ sub: org.ownerId, org_id: org.orgId, iss: 'https://idp.example.com', aud: 'orgctl' });
    const res = await t.request('GET', '/api/v0/me', { key: token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ principalId: org.ownerId, credential: { type: 'jwt' } });
  });

  it('refuses a wrong issuer, a wrong audience, and an HS256 token when only a JWKS is configured', async () => {
    const claims = { sub: org.ownerId, org_id: org.orgId };
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: await sign({ ...claims, iss: 'https://evil.example.com', aud: 'orgctl' }) }), 401);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: await sign({ ...claims, iss: 'https://idp.example.com', aud: 'other' }) }), 401);
    const hs = await new SignJWT({ ...claims, iss: 'https://idp.example.com', aud: 'orgctl' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-secret-that-is-at-least-32-characters'));
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: hs }), 401);
  });
});

describe('JWT lifetimes', () => {
  const claims = () => ({ sub: org.ownerId, org_id: org.orgId, iss: 'https://idp.example.com', aud: 'orgctl' });
  const signRaw = (extra: Record<string, unknown>) => new SignJWT({ ...claims(), ...extra }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);

  it('refuses an exp written in milliseconds (a token valid until the year 58,000)', async () => {
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: await signRaw({ exp: Date.now() + 300_000 }) }), 401);
  });

  it('refuses an exp further ahead than JWT_MAX_LIFETIME_S (default one day), accepts one within it', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: await signRaw({ exp: now + 2 * 86_400 }) }), 401);
    expect((await t.request('GET', '/api/v0/me', { key: await signRaw({ exp: now + 86_000 }) })).status).toBe(200);
  });

  it('refuses a token issued in the future, allows a minute of clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectErrorObject(await t.request('GET', '/api/v0/me', { key: await signRaw({ exp: now + 600, iat: now + 3600 }) }), 401);
    expect((await t.request('GET', '/api/v0/me', { key: await signRaw({ exp: now + 600, iat: now + 30 }) })).status).toBe(200);
  });
});

describe('a second app on the same database, serving only the application address (APP_PORT)', () => {
  it('refuses a key revoked through the api app within one second, even while the database is busy', async () => {
    // Its own app and database, on a clock the test moves: the web app's cache lives by it.
    const clock = new TestClock();
    const own = await TestApp.start({}, { clock });
    // As orgctl serve wires it: both listeners share the process's services. No shedding by
    // event-loop delay, as in TestApp: a starved test process must not answer 503.
    const web = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { services: own.services }, ['app']);
    await web.ready();
    try {
      const user = await own.addUser(await own.createOrg('busy-org'), 'member');
      const viaWeb = () => web.inject({ method: 'GET', url: '/api/organization/maturity-level-reports', headers: { authorization: `Bearer ${user.key}` } });
      expect((await viaWeb()).statusCode).toBe(200); // now cached by the web app
      const keys = await own.request<{ apiKeys: { id: string }[] }>('GET', '/api/v0/api-keys', { key: user.key });
      expect((await own.request('DELETE', `/api/v0/api-keys/${keys.body.apiKeys[0]!.id}`, { key: user.key })).status).toBe(204);
      // A slow query holds the database past the cache's lifetime: a re-check of the key has to
      // wait behind it, and a cache that answered while it re-checks would answer 200.
      const busy = own.db.query('SELECT pg_sleep(1.5)');
      clock.advance(1001);
      expect((await viaWeb()).statusCode).toBe(401);
      await busy;
    } finally {
      await web.close();
      await own.close();
    }
  });
});

describe.runIf(onPostgres)('several processes on one PostgreSQL', () => {
  it('a key revoked through one process is refused by another within one second', async () => {
    // The other process's time: its cached credential lives exactly its AUTH_CACHE_TTL_MS (1000) of this clock.
    const clock = new TestClock();
    const other = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { db: t.db, clock });
    await other.ready();
    try {
      const user = await t.addUser(org, 'member');
      const viaOther = () => other.inject({ method: 'GET', url: '/api/v0/me', headers: { authorization: `Bearer ${user.key}` } });
      expect((await viaOther()).statusCode).toBe(200); // now cached by the other process
      const keys = await t.request<{ apiKeys: { id: string }[] }>('GET', '/api/v0/api-keys', { key: user.key });
      expect((await t.request('DELETE', `/api/v0/api-keys/${keys.body.apiKeys[0]!.id}`, { key: user.key })).status).toBe(204);
      // Nothing tells the other process: it answers from its cache within the second, and not after.
      clock.advance(999);
      expect((await viaOther()).statusCode).toBe(200);
      clock.advance(2);
      expect((await viaOther()).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
