import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { RedirectWalker, TestOidcProvider } from '../helpers/oidc-provider.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

// Who may route an email domain's sign-ins: a claim proves nothing until the instance operator
// verifies it (orgctl sso verify-domain, whose messages test/cli/sso.test.ts reads) or lists it.

const APP = 'http://127.0.0.1:9';
const SSO = '/api/v0/organization/sso';

interface Domain {
  domain: string;
  verified: boolean;
  verifiedBy: string | null;
  verificationToken: string | null;
}

const clock = new TestClock(Date.parse('2026-11-02T09:00:00Z'));
let t: TestApp;
let idp: TestOidcProvider;
let victim: Org;
let squatter: Org;

beforeAll(async () => {
  idp = await TestOidcProvider.start(`${APP}/api/v0/sso/callback`);
  t = await TestApp.start({ publicUrl: APP, ssoAllowPrivateIssuer: true }, { clock });
  victim = await t.createOrg('victim', 'owner@victim.test');
  squatter = await t.createOrg('squatter', 'owner@squatter.test');
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const configure = (org: Org, allowedDomains: string[], app = t.app) =>
  app
    .inject({
      method: 'PUT',
      url: SSO,
      headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains }),
    })
    .then((res) => ({ status: res.statusCode, body: res.json<{ domains: Domain[] }>(), headers: res.headers, raw: res.body }));
const domainsOf = async (org: Org) => (await t.request<{ domains: Domain[] }>('GET', SSO, { key: org.ownerKey })).body.domains;
const tokenOf = async (org: Org, domain: string) => (await domainsOf(org)).find((d) => d.domain === domain)!.verificationToken!;
const start = (email: string) => t.app.inject({ method: 'GET', url: `/api/v0/sso/start?email=${encodeURIComponent(email)}` });

/** A whole sign-in started with `startEmail`, signed in at the provider as `login`; answers where the callback sends the browser. */
async function signIn(login: string, startEmail = login): Promise<string> {
  idp.addAccount({ email: login });
  idp.nextLogin = login;
  const started = await start(startEmail);
  expect(started.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  const flow = started.cookies.find((c) => c.name === 'orgctl_sso_flow')!;
  const back = await new RedirectWalker().walk(started.headers.location as string, APP);
  const res = await t.app.inject({ method: 'GET', url: back.pathname + back.search, cookies: { orgctl_sso_flow: flow.value } });
  return res.headers.location as string;
}

describe('SSO domains', () => {
  it('a claimed domain routes no sign-in and creates no one until it is verified', async () => {
    // The squatter claims the victim's domain first, with a provider it controls.
    const claimed = await configure(squatter, ['victim.test']);
    expect(claimed.status).toBe(200);
    expect((await start('ceo@victim.test')).headers.location).toBe(`${APP}/login?sso_error=sso_not_configured`);
    expect(claimed.body.domains).toEqual([
      { domain: 'victim.test', verified: false, verifiedAt: null, verifiedBy: null, verificationToken: expect.any(String) },
    ]);
    expect(await t.identity.findPrincipal(squatter.orgId, { email: 'ceo@victim.test' })).toBeUndefined();
  });

  it('a pending claim blocks no one: the organization that holds the domain claims it too', async () => {
    const claimed = await configure(victim, ['victim.test', 'victim-labs.test']);
    expect(claimed.status).toBe(200);
    expect(claimed.body.domains.map((d) => [d.domain, d.verified])).toEqual([
      ['victim-labs.test', false],
      ['victim.test', false],
    ]);
  });

  it('verify-domain refuses a wrong token and verifies the claim whose token it is given', async () => {
    const squatters = await tokenOf(squatter, 'victim.test');
    const victims = await tokenOf(victim, 'victim.test');
    expect(squatters).not.toBe(victims);
    expect(await t.services.sso.verifyDomain('victim.test', 'not-the-token')).toEqual({ outcome: 'wrong_token', domain: 'victim.test' });
    expect(await t.services.sso.verifyDomain('nobody.test', victims)).toEqual({ outcome: 'not_claimed', domain: 'nobody.test' });
    expect((await domainsOf(victim)).find((d) => d.domain === 'victim.test')!.verified).toBe(false);

    expect(await t.services.sso.verifyDomain('VICTIM.test', victims)).toEqual({ outcome: 'verified', domain: 'victim.test', orgId: victim.orgId });
    expect((await domainsOf(victim)).find((d) => d.domain === 'victim.test')).toMatchObject({
      verified: true,
      verifiedBy: 'operator',
      verificationToken: null,
    });
    expect(await t.services.sso.verifyDomain('victim.test', victims)).toMatchObject({ outcome: 'already', orgId: victim.orgId });
    // Verified, it routes to the victim's organization, and its people are created there.
    expect(await signIn('ceo@victim.test')).toBe(`${APP}/`);
    expect(await t.identity.findPrincipal(victim.orgId, { email: 'ceo@victim.test' })).toBeDefined();
    expect(await t.identity.findPrincipal(squatter.orgId, { email: 'ceo@victim.test' })).toBeUndefined();
  });

  it('a second organization can neither verify nor claim a verified domain', async () => {
    const squatters = await tokenOf(squatter, 'victim.test');
    expect(await t.services.sso.verifyDomain('victim.test', squatters)).toEqual({ outcome: 'taken', domain: 'victim.test', orgId: victim.orgId });
    const again = await configure(squatter, ['squatter.test', 'victim.test']);
    expect(expectErrorObject(again, 409).metadata).toMatchObject({ code: 'domain_taken', field: 'allowedDomains/1' });
    // Saving the victim's configuration again keeps its verification.
    expect((await configure(victim, ['victim.test', 'victim-labs.test'])).body.domains.find((d) => d.domain === 'victim.test')!.verified).toBe(true);
  });

  it("a person whose email is of a pending domain is not admitted, even through a verified domain's sign-in", async () => {
    expect(await signIn('dev@victim-labs.test', 'ceo@victim.test')).toBe(`${APP}/login?sso_error=domain_not_allowed`);
    expect(await t.identity.findPrincipal(victim.orgId, { email: 'dev@victim-labs.test' })).toBeUndefined();
  });

  it("the operator's allow-list verifies a domain for its organization at once, and refuses it to any other", async () => {
    const listed = await t.otherProcess({
      publicUrl: APP,
      ssoAllowPrivateIssuer: true,
      ssoVerifiedDomains: `victim-labs.test=${victim.orgId}, listed.test=${victim.orgId}`,
    });
    try {
      const bySquatter = await configure(squatter, ['squatter.test', 'listed.test'], listed);
      expect(expectErrorObject(bySquatter, 409).metadata).toMatchObject({ code: 'domain_taken', field: 'allowedDomains/1' });
      const byVictim = await configure(victim, ['victim.test', 'victim-labs.test', 'listed.test'], listed);
      expect(byVictim.body.domains.map((d) => [d.domain, d.verified, d.verifiedBy])).toEqual([
        ['listed.test', true, 'allow_list'],
        ['victim-labs.test', true, 'allow_list'],
        ['victim.test', true, 'operator'],
      ]);
    } finally {
      await listed.close();
    }
    expect(await signIn('dev@victim-labs.test', 'ceo@victim.test')).toBe(`${APP}/`);
  });
});
