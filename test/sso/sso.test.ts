import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../src/core/accounts/secrets.js';
import { TestClock } from '../../src/core/clock.js';
import { RedirectWalker, TestOidcProvider } from '../helpers/oidc-provider.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const APP = 'http://127.0.0.1:9';
const SSO = '/api/v0/organization/sso';
const SESSION = '__Host-orgctl_session';

interface SsoEvent {
  kind: string;
  email: string | null;
  reason: string | null;
  detail: Record<string, unknown>;
}

const clock = new TestClock(Date.parse('2026-11-02T09:00:00Z'));
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
const logLines: string[] = [];
let t: TestApp;
let idp: TestOidcProvider;
let org: Org;
let payments: string;

beforeAll(async () => {
  idp = await TestOidcProvider.start(`${APP}/api/v0/sso/callback`);
  const log = pino(
    { level: 'trace' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  // Every sign-in here reads the client secret sealed under SECRETS_KEY (docs/deployment.md, Secrets).
  t = await TestApp.start({ publicUrl: APP, ssoAllowPrivateIssuer: true, secretsKey: SECRETS_KEY }, { clock, log });
  org = await t.createOrg('acme', 'owner@acme.test');
  payments = (await t.request<{ id: string }>('POST', '/api/v0/organization/teams', { key: org.ownerKey, body: { name: 'Payments' } })).body.id;
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});
afterEach(() => {
  idp.tamperIdToken = false;
  vi.useRealTimers();
});

const configBody = (over: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  clientId: idp.clientId,
  allowedDomains: ['acme.test'],
  groupsClaim: 'groups',
  roleMapping: { 'orgctl-managers': 'manager', 'orgctl-guests': 'guest' },
  teamMapping: { 'team-payments': 'Payments' },
  ...over,
});

/**
 * One sign-in as a browser makes it: start at orgctl, through the provider's authorization and
 * interaction, back to orgctl's callback with the flow cookie. `tamper` changes the callback URL
 * (or the world) before orgctl sees it. Answers the callback's response.
 */
async function signIn(login: string, startEmail = login, tamper?: (callback: URL) => Promise<void> | void) {
  idp.nextLogin = login;
  const start = await t.app.inject({ method: 'GET', url: `/api/v0/sso/start?email=${encodeURIComponent(startEmail)}` });
  expect(start.statusCode).toBe(302);
  const flow = start.cookies.find((c) => c.name === 'orgctl_sso_flow');
  expect(flow?.httpOnly).toBe(true);
  const back = await new RedirectWalker().walk(start.headers.location as string, APP);
  await tamper?.(back);
  return t.app.inject({ method: 'GET', url: back.pathname + back.search, cookies: { orgctl_sso_flow: flow!.value } });
}

async function whoAmI(res: Awaited<ReturnType<typeof signIn>>) {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`${APP}/`);
  const session = res.cookies.find((c) => c.name === SESSION);
  const me = await t.app.inject({ method: 'GET', url: '/api/v0/session', cookies: { [SESSION]: session!.value } });
  expect(me.statusCode).toBe(200);
  return me.json<{ email: string; role: string; principalId: string }>();
}

const refusedWith = (res: Awaited<ReturnType<typeof signIn>>, reason: string) => {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`${APP}/login?sso_error=${reason}`);
  expect(res.cookies.find((c) => c.name === SESSION)).toBeUndefined();
};

const events = async () => (await t.request<{ events: SsoEvent[] }>('GET', `${SSO}/events`, { key: org.ownerKey })).body.events;
const teamMembers = async () =>
  (await t.request<{ members: { email: string }[] }>('GET', `/api/v0/organization/teams/${payments}`, { key: org.ownerKey })).body.members.map((m) => m.email);

describe('SSO configuration', () => {
  it('is owners only, needs the client secret the first time and never returns it', async () => {
    const manager = await t.addUser(org, 'manager', 'manny@acme.test');
    expectErrorObject(await t.request('GET', SSO, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('PUT', SSO, { key: manager.key, body: { ...configBody(), clientSecret: 'x' } }), 403);
    const noSecret = expectErrorObject(await t.request('PUT', SSO, { key: org.ownerKey, body: configBody() }), 400);
    expect(noSecret.metadata).toMatchObject({ errors: [{ path: '/clientSecret' }] });
    const unknownTeam = expectErrorObject(
      await t.request('PUT', SSO, { key: org.ownerKey, body: { ...configBody({ teamMapping: { g: 'Nope' } }), clientSecret: idp.clientSecret } }),
      400,
    );
    expect(unknownTeam.metadata).toMatchObject({ errors: [{ path: '/teamMapping/g' }] });

    const put = await t.request('PUT', SSO, { key: org.ownerKey, body: { ...configBody(), clientSecret: idp.clientSecret } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      issuer: idp.issuer,
      clientSecretSet: true,
      allowedDomains: ['acme.test'],
      teamMapping: { 'team-payments': payments },
      redirectUri: `${APP}/api/v0/sso/callback`,
      required: false,
    });
    expect(put.raw).not.toContain(idp.clientSecret);
    // A new domain signs no one in until the instance operator verifies the organization's claim (test/sso/domains.test.ts).
    const [claim] = (put.body as { domains: { domain: string; verified: boolean; verificationToken: string }[] }).domains;
    expect(claim).toMatchObject({ domain: 'acme.test', verified: false });
    expect(await t.services.sso.verifyDomain('acme.test', claim!.verificationToken)).toMatchObject({ outcome: 'verified' });
    // Omitted later, the secret is kept.
    const again = await t.request('PUT', SSO, { key: org.ownerKey, body: configBody({ groupsClaim: 'groups' }) });
    expect(again.status).toBe(200);
    const got = await t.request('GET', SSO, { key: org.ownerKey });
    expect(got.body).toEqual(again.body);
    expect(got.body).toMatchObject({ domains: [{ domain: 'acme.test', verified: true, verifiedBy: 'operator', verificationToken: null }] });
    expect(got.raw).not.toContain(idp.clientSecret);
    // Kept (through the PUT that omitted it) sealed: the database holds no copy of it.
    const [stored] = await t.db.query<{ client_secret: string }>('SELECT client_secret FROM sso_configs');
    expect(stored!.client_secret).toMatch(/^sealed:v1:[0-9a-f]{8}:/);
    expect(stored!.client_secret).not.toContain(idp.clientSecret);
  });

  it('keeps the client secret for its issuer only: a new issuer needs a new secret', async () => {
    const moved = expectErrorObject(await t.request('PUT', SSO, { key: org.ownerKey, body: configBody({ issuer: 'https://elsewhere.example' }) }), 400);
    expect(moved.metadata).toMatchObject({ errors: [{ path: '/clientSecret', message: 'is required when the issuer changes' }] });
    expect((await t.request<{ issuer: string }>('GET', SSO, { key: org.ownerKey })).body.issuer).toBe(idp.issuer);
  });

  it('refuses a domain verified for another organization (409)', async () => {
    const other = await t.createOrg('other', 'owner@other.test');
    const res = await t.request('PUT', SSO, {
      key: other.ownerKey,
      body: { ...configBody({ allowedDomains: ['other.test', 'ACME.test'], teamMapping: {} }), clientSecret: 's' },
    });
    expect(expectErrorObject(res, 409).metadata).toMatchObject({ code: 'domain_taken', field: 'allowedDomains/1' });
  });

  it('refuses an issuer on an internal address unless SSO_ALLOW_PRIVATE_ISSUER (502)', async () => {
    const strict = await t.otherProcess({ publicUrl: APP, ssoAllowPrivateIssuer: false, secretsKey: SECRETS_KEY });
    try {
      const res = await strict.inject({
        method: 'PUT',
        url: SSO,
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(configBody()),
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toMatch(/SSO_ALLOW_PRIVATE_ISSUER/);
    } finally {
      await strict.close();
    }
  });
});

describe('SSO sign-in', () => {
  it('creates a person at first sign-in with the role and team their groups map to', async () => {
    idp.addAccount({ email: 'alice@acme.test', name: 'Alice', groups: ['orgctl-managers', 'team-payments'] });
    const me = await whoAmI(await signIn('alice@acme.test'));
    expect(me).toMatchObject({ email: 'alice@acme.test', role: 'manager' });
    expect(await teamMembers()).toContain('alice@acme.test');
    const kinds = (await events()).filter((e) => e.email === 'alice@acme.test').map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['user_created', 'teams_changed', 'sign_in']));
  });

  it('applies the mapping again at every sign-in: the role and the team follow the groups', async () => {
    idp.addAccount({ email: 'alice@acme.test', name: 'Alice', groups: ['orgctl-guests'] });
    const me = await whoAmI(await signIn('alice@acme.test'));
    expect(me.role).toBe('guest');
    expect(await teamMembers()).not.toContain('alice@acme.test');
    const [latest, ...rest] = await events();
    expect(latest!.kind).toBe('sign_in');
    expect(rest.find((e) => e.kind === 'role_changed')).toMatchObject({ email: 'alice@acme.test', detail: { from: 'manager', to: 'guest' } });
    expect(rest.find((e) => e.kind === 'teams_changed')).toMatchObject({ detail: { joined: [], left: ['Payments'] } });
  });

  it('links or creates only an email the provider marks verified: no claim, or a false one, takes over no one', async () => {
    for (const [email, claim] of [
      ['owner@acme.test', null],
      ['owner@acme.test', 'false'],
      ['owner@acme.test', false],
      ['newcomer@acme.test', null],
    ] as const) {
      idp.addAccount({ email, emailVerified: claim });
      refusedWith(await signIn(email), 'email_not_verified');
      expect((await events())[0]).toMatchObject({ kind: 'sign_in_failed', email, reason: expect.stringMatching(/^email_not_verified/) });
    }
    expect(await t.identity.findPrincipal(org.orgId, { email: 'newcomer@acme.test' })).toBeUndefined();
    // Some providers send the claim as a string.
    idp.addAccount({ email: 'carol@acme.test', emailVerified: 'true' });
    expect((await whoAmI(await signIn('carol@acme.test'))).email).toBe('carol@acme.test');
  });

  it("signs in without email_verified only where the organization trusts the provider's emails", async () => {
    const trusted = await t.request<{ trustUnverifiedEmails: boolean }>('PUT', SSO, { key: org.ownerKey, body: configBody({ trustUnverifiedEmails: true }) });
    expect(trusted.body.trustUnverifiedEmails).toBe(true);
    idp.addAccount({ email: 'dave@acme.test', emailVerified: null });
    expect((await whoAmI(await signIn('dave@acme.test'))).email).toBe('dave@acme.test');
    // A claim that says unverified is refused even so.
    idp.addAccount({ email: 'erin@acme.test', emailVerified: false });
    refusedWith(await signIn('erin@acme.test'), 'email_not_verified');
    const strict = await t.request<{ trustUnverifiedEmails: boolean }>('PUT', SSO, { key: org.ownerKey, body: configBody() });
    expect(strict.body.trustUnverifiedEmails).toBe(false);
    refusedWith(await signIn('dave@acme.test'), 'email_not_verified');
  });

  it('refuses an email whose domain is not allowed, and records why', async () => {
    idp.addAccount({ email: 'mallory@evil.test', groups: ['orgctl-managers'] });
    refusedWith(await signIn('mallory@evil.test', 'mallory@acme.test'), 'domain_not_allowed');
    expect((await events())[0]).toMatchObject({ kind: 'sign_in_failed', email: 'mallory@evil.test', reason: expect.stringMatching(/^domain_not_allowed/) });
    expect(await t.identity.findPrincipal(org.orgId, { email: 'mallory@evil.test' })).toBeUndefined();
  });

  it('sends an email of no SSO domain back to the login page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/sso/start?email=someone@nowhere.test' });
    expect(res.headers.location).toBe(`${APP}/login?sso_error=sso_not_configured`);
  });

  it("records a provider's error bounded and without control characters, whoever opened the callback", async () => {
    idp.addAccount({ email: 'bob@acme.test' });
    const noise = 'denied\u001b[2J\r\u202e'.repeat(300);
    refusedWith(
      await signIn('bob@acme.test', undefined, (u) => {
        for (const k of [...u.searchParams.keys()]) if (k !== 'state') u.searchParams.delete(k);
        u.searchParams.set('error', 'access_denied');
        u.searchParams.set('error_description', noise);
      }),
      'provider_error',
    );
    const [event] = await events();
    expect(event).toMatchObject({ kind: 'sign_in_failed', reason: expect.stringMatching(/^provider_error: access_denied: denied/) });
    expect(event!.reason!.length).toBeLessThan(500);
    expect(event!.reason).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it('refuses a tampered state', async () => {
    idp.addAccount({ email: 'bob@acme.test' });
    refusedWith(await signIn('bob@acme.test', undefined, (u) => u.searchParams.set('state', 'forged-state')), 'state_mismatch');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    refusedWith(
      await signIn('bob@acme.test', undefined, async () => {
        await t.db.query(`UPDATE sso_flows SET nonce = 'another-sign-ins-nonce'`);
      }),
      'nonce_mismatch',
    );
  });

  it('refuses an expired authorization code', async () => {
    refusedWith(
      await signIn('bob@acme.test', undefined, () => {
        // The provider's clock (this process's Date) moves past the code's lifetime; orgctl's own is the TestClock.
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15 * 60_000 });
      }),
      'code_rejected',
    );
  });

  it('refuses an ID token signed by a key the provider never published', async () => {
    idp.tamperIdToken = true;
    refusedWith(await signIn('bob@acme.test'), 'id_token_invalid');
    expect(await t.identity.findPrincipal(org.orgId, { email: 'bob@acme.test' })).toBeUndefined();
  });

  it('honours a callback once', async () => {
    let replay: URL | undefined;
    const first = await signIn('bob@acme.test', undefined, (u) => {
      replay = new URL(u);
    });
    expect((await whoAmI(first)).email).toBe('bob@acme.test');
    const again = await t.app.inject({ method: 'GET', url: replay!.pathname + replay!.search });
    expect(again.headers.location).toBe(`${APP}/login?sso_error=no_sign_in_under_way`);
  });
});

describe('SSO required', () => {
  it('stops passwords for everyone but owners, whose break-glass sign-in is audited', async () => {
    const hash = await hashPassword('correct horse battery');
    const member = await t.addUser(org, 'member', 'mia@acme.test');
    await t.db.query(`UPDATE principals SET password_hash = $1 WHERE id IN ($2, $3)`, [hash, member.id, org.ownerId]);
    const login = (email: string) =>
      t.request('POST', '/api/v0/session/login', { body: { email, password: 'correct horse battery' }, headers: { 'sec-fetch-site': 'same-origin' } });
    expect((await login('mia@acme.test')).status).toBe(200);

    expect(
      (await t.request('PUT', SSO, { key: org.ownerKey, body: { ...configBody({ required: true }), clientSecret: idp.clientSecret } })).body,
    ).toMatchObject({ required: true });
    const refused = expectErrorObject(await login('mia@acme.test'), 403);
    expect(refused.metadata).toMatchObject({ code: 'sso_required' });
    expect((await login('owner@acme.test')).status).toBe(200);
    const [glass, failed] = await events();
    expect(glass).toMatchObject({ kind: 'break_glass', email: 'owner@acme.test' });
    expect(failed).toMatchObject({ kind: 'sign_in_failed', email: 'mia@acme.test' });
    // SSO itself still signs the member in.
    idp.addAccount({ email: 'mia@acme.test' });
    expect((await whoAmI(await signIn('mia@acme.test'))).email).toBe('mia@acme.test');
  });

  it('refuses accepting an invitation with a password while SSO is required', async () => {
    const invited = await t.request<{ token: string }>('POST', '/api/v0/organization/invitations', {
      key: org.ownerKey,
      body: { email: 'ivy@acme.test', role: 'member' },
    });
    const accepted = await t.request('POST', '/api/v0/invitations/accept', {
      body: { token: invited.body.token, password: 'a long enough password' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(expectErrorObject(accepted, 403).metadata).toMatchObject({ code: 'sso_required' });
  });

  it('pages the events newest first for owners only', async () => {
    const manager = await t.addUser(org, 'manager', 'max@acme.test');
    expectErrorObject(await t.request('GET', `${SSO}/events`, { key: manager.key }), 403);
    const all = await events();
    const first = await t.request<{ events: SsoEvent[]; nextCursor: string }>('GET', `${SSO}/events?limit=3`, { key: org.ownerKey });
    expect(first.body.events).toEqual(all.slice(0, 3));
    const second = await t.request<{ events: SsoEvent[] }>('GET', `${SSO}/events?limit=3&cursor=${first.body.nextCursor}`, { key: org.ownerKey });
    expect(second.body.events).toEqual(all.slice(3, 6));
    expectErrorObject(await t.request('GET', `${SSO}/events?cursor=nonsense`, { key: org.ownerKey }), 400);
  });

  it('never lets the client secret into a response or the log', async () => {
    const all = await t.request('GET', `${SSO}/events?limit=500`, { key: org.ownerKey });
    expect(all.raw).not.toContain(idp.clientSecret);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('\n')).not.toContain(idp.clientSecret);
    expect(logLines.join('\n')).not.toContain(Buffer.from(`${idp.clientId}:${idp.clientSecret}`).toString('base64'));
  });
});
