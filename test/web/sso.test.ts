import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestOidcProvider } from '../helpers/oidc-provider.js';
import { axeViolations, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

type Team = { id: string; name: string; members: { email: string }[] };

describe.skipIf(!hasChromium)('Single sign-on in Chromium against orgctl serve and a real OpenID provider', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    // The operator's allow-list verifies web.test for this organization; other domains stay pending.
    s = await signedInOwner(async (_dbEnv, owner) => ({ SSO_VERIFIED_DOMAINS: `web.test=${owner.orgId}` }));
    idp = await TestOidcProvider.start(`${s.server.url}/api/v0/sso/callback`);
    // The person signs in at the provider's own login and consent pages.
    idp.interactive = true;
    expect((await apiCall(s, 'POST', '/api/v0/organization/teams', { name: 'Payments' })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await idp?.close();
  });

  /** A fresh browser at /login, through the provider's pages, back to orgctl. */
  async function ssoSignIn(email: string): Promise<Page> {
    const context = await s.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${s.server.url}/login`);
    await page.getByLabel('Work address').fill(email);
    await page.getByRole('button', { name: 'Use single sign-on' }).click();
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    return page;
  }

  it('an owner configures SSO on the settings page; a new person signs in through the provider, created as the groups map them', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    await page.getByText('Not configured').waitFor();
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Allowed email domains').fill('web.test, pending.test');
    await page.getByLabel('Role mapping').fill('orgctl-managers = manager');
    await page.getByLabel('Team mapping').fill('team-payments = Payments');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByTestId('redirect-uri')
      .filter({ hasText: `${s.server.url}/api/v0/sso/callback` })
      .waitFor();
    expect(await page.getByLabel('Client secret (set; leave empty to keep it)').inputValue()).toBe('');
    const domains = page.getByTestId('sso-domains');
    await domains.getByRole('listitem').filter({ hasText: "web.test: verified (the operator's allow-list)" }).waitFor();
    expect(await domains.getByRole('listitem').filter({ hasText: 'pending.test' }).textContent()).toMatch(/pending\.test: pending, token [\w-]{43}/);
    expect(await axeViolations(page)).toEqual([]);

    idp.addAccount({ email: 'ada@web.test', name: 'Ada', groups: ['orgctl-managers', 'team-payments'] });
    const ada = await ssoSignIn('ada@web.test');
    await ada.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await ada.getByTestId('signed-in-as').textContent()).toBe('ada@web.test');
    const me = await ada.evaluate(() => fetch('/api/v0/session').then((r) => r.json() as Promise<{ role: string }>));
    expect(me.role).toBe('manager');
    const teams = (await apiCall<{ teams: Team[] }>(s, 'GET', '/api/v0/organization/teams')).body.teams;
    expect(teams.find((t) => t.name === 'Payments')!.members.map((m) => m.email)).toEqual(['ada@web.test']);
    await ada.context().close();

    await page.reload();
    await page.getByTestId('sso-events').getByRole('row').filter({ hasText: 'user created' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sends a person of another domain back to the login page with the reason', async () => {
    idp.addAccount({ email: 'eve@evil.test' });
    const context = await s.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${s.server.url}/login`);
    await page.getByLabel('Work address').fill('eve@web.test');
    await page.getByRole('button', { name: 'Use single sign-on' }).click();
    await page.locator('input[name="login"]').fill('eve@evil.test');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('sso-error').filter({ hasText: 'does not allow' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
