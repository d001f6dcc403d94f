import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/core/accounts/secrets.js';
import { buildApp } from '../../../src/app.js';
import { loadConfig, type Config } from '../../../src/config.js';
import { buildServices } from '../../../src/services.js';
import { TestApp, type Org } from '../../helpers/test-app.js';

// Behind a TLS-terminating proxy the service sees plain HTTP on a non-loopback Host: only
// PUBLIC_URL or a trusted X-Forwarded-Proto can tell it the browser is on HTTPS.
const HOST = 'orgctl.example.com';
const PASSWORD = 'proxy password 123';

let t: TestApp;
let org: Org;
let email: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('proxied');
  const user = await t.addUser(org, 'manager');
  await t.db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(PASSWORD)]);
  email = user.email;
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await t?.close();
});

async function serviceWith(overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await t.otherProcess(overrides);
  apps.push(app);
  return app;
}

/**
 * Signs in as a browser would through the proxy (every request with `headers`), then reads
 * with the cookie and makes a cookie-authenticated write with the CSRF header.
 */
async function browse(app: FastifyInstance, headers: Record<string, string>) {
  const base = { host: HOST, 'sec-fetch-site': 'same-origin', ...headers };
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v0/session/login',
    headers: { ...base, 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(signIn.statusCode).toBe(200);
  const lines = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []);
  const cookies = new Map(lines.map((l) => [l.slice(0, l.indexOf('=')), l]));
  const cookie = [...cookies].map(([name, line]) => `${name}=${line.slice(name.length + 1, line.indexOf(';'))}`).join('; ');
  const me = await app.inject({ method: 'GET', url: '/api/v0/me', headers: { ...base, cookie } });
  const write = await app.inject({
    method: 'POST',
    url: '/api/v0/api-keys',
    headers: { ...base, cookie, 'content-type': 'application/json', 'x-csrf-token': signIn.json<{ csrfToken: string }>().csrfToken },
    payload: JSON.stringify({ name: 'through the proxy' }),
  });
  return { cookies, me: me.statusCode, write: write.statusCode };
}

function expectSecureCookies(cookies: Map<string, string>) {
  expect([...cookies.keys()].sort()).toEqual(['__Host-orgctl_csrf', '__Host-orgctl_session']);
  for (const line of cookies.values()) {
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
  }
}

function expectPlainCookies(cookies: Map<string, string>) {
  expect([...cookies.keys()].sort()).toEqual(['orgctl_csrf', 'orgctl_session']);
  for (const line of cookies.values()) expect(line).not.toMatch(/Secure/);
}

describe('session cookies behind an HTTPS proxy', () => {
  it('with PUBLIC_URL=https://…: __Host- names with Secure, and the cookie reads and writes (CSRF) work', async () => {
    const app = await serviceWith({ publicUrl: `https://${HOST}` });
    const b = await browse(app, {});
    expectSecureCookies(b.cookies);
    expect([b.me, b.write]).toEqual([200, 201]);
  });

  it('with TRUST_PROXY=true and X-Forwarded-Proto: https: __Host- names with Secure, and reads and writes work', async () => {
    const app = await serviceWith({ trustProxy: loadConfig({ TRUST_PROXY: 'true' }).trustProxy });
    const b = await browse(app, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' });
    expectSecureCookies(b.cookies);
    expect([b.me, b.write]).toEqual([200, 201]);
  });

  it("with TRUST_PROXY naming the proxy's address, X-Forwarded-Proto from it is believed, and from elsewhere not", async () => {
    expectSecureCookies((await browse(await serviceWith({ trustProxy: 'loopback' }), { 'x-forwarded-proto': 'https' })).cookies);
    expectPlainCookies((await browse(await serviceWith({ trustProxy: '10.0.0.0/8' }), { 'x-forwarded-proto': 'https' })).cookies);
  });

  it('with neither, plain HTTP on a LAN name: cookies without the prefix or Secure, which still work', async () => {
    const app = await serviceWith({});
    const b = await browse(app, {});
    expectPlainCookies(b.cookies);
    expect([b.me, b.write]).toEqual([200, 201]);
  });

  it('X-Forwarded-Proto is not trusted without TRUST_PROXY', async () => {
    const app = await serviceWith({});
    const b = await browse(app, { 'x-forwarded-proto': 'https' });
    expectPlainCookies(b.cookies);
    expect([b.me, b.write]).toEqual([200, 201]);
  });

  it('a PUBLIC_URL of plain http and no trusted proxy keep the plain names', async () => {
    const app = await serviceWith({ publicUrl: `http://${HOST}` });
    expectPlainCookies((await browse(app, {})).cookies);
  });
});

describe('with APP_PORT', () => {
  it("the application listener hands sign-ins to the API with what the proxy told it: Secure __Host- cookies, the client's address", async () => {
    const config = loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0, trustProxy: 'loopback', appPort: 0 });
    const services = buildServices(config, { db: t.db });
    const api = await buildApp(config, { services }, ['api']);
    const web = await buildApp(config, { services, api }, ['app']);
    apps.push(web, api);
    const b = await browse(web, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' });
    expectSecureCookies(b.cookies);
    expect([b.me, b.write]).toEqual([200, 201]);
    // The sign-in was counted (and taken back) under the client's address, not the proxy's.
    const counted = await t.db.query<{ key: string }>(`SELECT key FROM sign_in_failures WHERE key LIKE 'login:address:%'`);
    expect(counted.map((r) => r.key)).toContain('login:address:203.0.113.9');
  });
});

describe('TRUST_PROXY', () => {
  it('takes true/false, or addresses and CIDR ranges, as Fastify does; off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1,::1');
    for (const bad of ['everyone please', '2', '0', '10.0.0.1; rm']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });
});
