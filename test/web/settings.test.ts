import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { apiCall, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const MEMBER = 'member@web.test';
const ANA = 'ana@web.test';
const BEN = 'ben@web.test';
const FORBIDDEN = 'This operation needs one of the roles: owner, manager.';
// Numbers are shown in the browser's locale: any grouping separator.
const credits = (millions: number) => new RegExp(`^${millions}\\D?000\\D?000 credits$`);

type Audit = { entries: { scope: string; targetEmail: string | null; oldLimit: number | null; newLimit: number | null; actorEmail: string | null }[] };

describe.skipIf(!hasChromium)('Settings → service accounts, usage limits and the audit log in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let member: Page;

  /** A user of the organization, invited with the owner's key and accepted over the API as the invitation page does. */
  const addUser = async (email: string) => {
    const invited = await apiCall<{ token: string }>(s, 'POST', '/api/v0/organization/invitations', { email, role: 'member' });
    expect(invited.status).toBe(201);
    const res = await fetch(`${s.server.url}/api/v0/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ token: invited.body.token, password: 'a password 123' }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    s = await signedInOwner();
    member = await signedInAs(s, 'member', MEMBER);
    await addUser(ANA);
    await addUser(BEN);
  }, 120_000);

  it('creates a service account and a key for it; the key calls the API until it is revoked; the account is removed after a confirmation', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Service accounts' }).click();
    await page.getByRole('heading', { name: 'Service accounts', level: 1 }).waitFor();
    await page.getByText('No service accounts yet.').waitFor();
    await page.getByLabel('Account name').fill('ci-bot');
    await page.getByLabel('Account role').selectOption('member');
    await page.getByRole('button', { name: 'Create service account' }).click();

    const card = page.getByRole('region', { name: 'ci-bot' });
    await card.getByText('Role member').waitFor();
    await card.getByLabel('Key name').fill('deploy');
    await card.getByRole('button', { name: 'Create key' }).click();
    const secret = (await card.getByTestId('new-key-secret').textContent())!;
    expect(secret).toMatch(/^ock_/);
    const me = await fetch(`${s.server.url}/api/v0/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ kind: 'service_account', name: 'ci-bot', role: 'member', credential: { type: 'api_key' } });
    const row = card.getByRole('row').filter({ hasText: 'deploy' });
    await row.getByRole('cell', { name: `${secret.slice(0, 10)}…` }).waitFor();
    await card.getByText('1 working key').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Revoke deploy' }).click();
    await row.getByRole('cell', { name: 'revoked' }).waitFor();
    await card.getByText('0 working keys').waitFor();
    expect((await fetch(`${s.server.url}/api/v0/me`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);

    // A key for managed installs: only what their hooks and exporters call.
    await card.getByLabel('Key name').fill('laptops');
    await card.getByLabel('Access').selectOption('managed');
    await card.getByRole('button', { name: 'Create key' }).click();
    const narrow = (await card.getByTestId('new-key-secret').filter({ hasNotText: secret }).textContent())!;
    const narrowMe = await fetch(`${s.server.url}/api/v0/me`, { headers: { authorization: `Bearer ${narrow}` } });
    expect(await narrowMe.json()).toMatchObject({ scopes: ['allowance:read', 'sessions:attribute', 'telemetry:write'] });
    expect((await fetch(`${s.server.url}/api/v0/organization/members`, { headers: { authorization: `Bearer ${narrow}` } })).status).toBe(403);
    await card.getByRole('row').filter({ hasText: 'laptops' }).getByRole('cell', { name: 'allowance:read, sessions:attribute, telemetry:write' }).waitFor();

    // A dismissed confirmation keeps the account; an accepted one removes it.
    page.once('dialog', (d) => void d.dismiss());
    await card.getByRole('button', { name: 'Remove service account ci-bot' }).click();
    expect((await apiCall<{ serviceAccounts: unknown[] }>(s, 'GET', '/api/v0/organization/service-accounts')).body.serviceAccounts).toHaveLength(1);
    page.once('dialog', (d) => {
      expect(d.message()).toContain('ci-bot');
      void d.accept();
    });
    await card.getByRole('button', { name: 'Remove service account ci-bot' }).click();
    await page.getByText('No service accounts yet.').waitFor();
    expect((await apiCall<{ serviceAccounts: unknown[] }>(s, 'GET', '/api/v0/organization/service-accounts')).body.serviceAccounts).toEqual([]);
  });

  it('sets the global limit, an override and a bulk edit of two users; the API’s refusals are shown; the audit log lists every change', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage limits' }).click();
    await page.getByRole('heading', { name: 'Usage limits', level: 1 }).waitFor();
    expect(await page.getByTestId('global-limit').textContent()).toBe('No limit');

    // Below the minimum: the API's error object says why, and nothing changes.
    const newLimit = page.getByLabel('New limit (Standard Credits, at least 1,000,000)');
    await newLimit.fill('5000');
    await page.getByRole('button', { name: 'Set limit' }).click();
    await page
      .getByRole('region', { name: 'Usage limits' })
      .getByRole('alert')
      .filter({ hasText: /1000000/ })
      .waitFor();
    await newLimit.fill('5,000,000');
    await page.getByRole('button', { name: 'Set limit' }).click();
    await page
      .getByTestId('global-limit')
      .filter({ hasText: credits(5) })
      .waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // One override, then two users at once (with an email that is nobody, which the API reports alone).
    const bulkLimit = page.getByLabel('Limit for them (Standard Credits, at least 1,000,000)');
    await page.getByRole('checkbox', { name: new RegExp(MEMBER) }).check();
    await bulkLimit.fill('7000000');
    await page.getByRole('button', { name: 'Set for the chosen users' }).click();
    await page
      .getByTestId('bulk-result')
      .filter({ hasText: `Changed: ${MEMBER}` })
      .waitFor();
    await page.getByRole('checkbox', { name: new RegExp(ANA) }).check();
    await page.getByRole('checkbox', { name: new RegExp(BEN) }).check();
    await page.getByLabel('Other emails (one a line, optional)').fill('nobody@web.test');
    await bulkLimit.fill('8000000');
    await page.getByRole('button', { name: 'Set for the chosen users' }).click();
    const result = page.getByTestId('bulk-result');
    await result.filter({ hasText: ANA }).waitFor();
    expect(await result.textContent()).toContain(BEN);
    expect(await result.getByRole('listitem').textContent()).toMatch(/^nobody@web.test: ./);
    // The refused email stays in the box, to be corrected; the users changed are no longer chosen.
    expect(await page.getByLabel('Other emails (one a line, optional)').inputValue()).toBe('nobody@web.test');
    expect(await page.getByRole('checkbox', { name: new RegExp(ANA) }).isChecked()).toBe(false);

    const limitOf = (email: string) => page.getByRole('row').filter({ hasText: email }).getByTestId('override-limit');
    await limitOf(BEN)
      .filter({ hasText: credits(8) })
      .waitFor();
    expect(await limitOf(ANA).textContent()).toMatch(credits(8));
    expect(await limitOf(MEMBER).textContent()).toMatch(credits(7));
    const limits = await apiCall<{ global: number; users: { email: string; limit: number }[] }>(s, 'GET', '/api/v0/organization/usage/limits/users');
    expect(limits.body).toEqual({
      global: 5_000_000,
      users: [
        { email: ANA, limit: 8_000_000 },
        { email: BEN, limit: 8_000_000 },
        { email: MEMBER, limit: 7_000_000 },
      ],
    });
    expect(await axeViolations(page)).toEqual([]);

    // An override edited in its row, and one removed.
    await page.getByLabel(`New limit of ${ANA}`).fill('9000000');
    await page.getByRole('button', { name: `Save the limit of ${ANA}` }).click();
    await limitOf(ANA)
      .filter({ hasText: credits(9) })
      .waitFor();
    await page.getByRole('button', { name: `Remove the override of ${BEN}` }).click();
    await page.getByRole('row').filter({ hasText: BEN }).getByTestId('override-limit').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Audit log of limit changes' }).click();
    await page.getByRole('heading', { name: 'Limit audit log' }).waitFor();
    const audit = (await apiCall<Audit>(s, 'GET', '/api/v0/organization/usage/limits/audit')).body.entries;
    expect(audit.map((e) => [e.scope, e.targetEmail, e.oldLimit, e.newLimit])).toEqual([
      ['user', BEN, 8_000_000, null],
      ['user', ANA, 8_000_000, 9_000_000],
      ['user', BEN, null, 8_000_000],
      ['user', ANA, null, 8_000_000],
      ['user', MEMBER, null, 7_000_000],
      ['global', null, null, 5_000_000],
    ]);
    const rows = page.getByTestId('audit-log').locator('tbody tr');
    await rows.nth(5).waitFor();
    expect(await rows.count()).toBe(6);
    const texts = await rows.allTextContents();
    expect(texts[0]).toMatch(new RegExp(`${s.owner.email}.*of ${BEN}.*8\\D?000\\D?000 → no limit`));
    expect(texts[1]).toMatch(new RegExp(`of ${ANA}.*8\\D?000\\D?000 → 9\\D?000\\D?000`));
    expect(texts[4]).toMatch(new RegExp(`of ${MEMBER}.*no limit → 7\\D?000\\D?000`));
    expect(texts[5]).toMatch(new RegExp(`${s.owner.email}.*for everyone.*no limit → 5\\D?000\\D?000`));
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a member sees none of these pages in the navigation; opened directly, the API’s answer is shown', async () => {
    await member.reload();
    const nav = member.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'API keys' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Service accounts' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Usage limits' }).count()).toBe(0);

    await member.goto(`${s.server.url}/settings/service-accounts`);
    await member.getByRole('alert').filter({ hasText: FORBIDDEN }).waitFor();
    expect(await member.getByRole('button', { name: 'Create service account' }).count()).toBe(0);
    await member.goto(`${s.server.url}/settings/usage-limits/audit`);
    await member.getByRole('alert').filter({ hasText: FORBIDDEN }).waitFor();
    // Every role may read the limits (the API says so), but only owners and managers change them.
    await member.goto(`${s.server.url}/settings/usage-limits`);
    await member
      .getByTestId('global-limit')
      .filter({ hasText: credits(5) })
      .waitFor();
    await member.getByText('Only owners and managers change them.').waitFor();
    expect(await member.getByRole('button', { name: 'Set limit' }).count()).toBe(0);
    expect(await member.getByRole('checkbox').count()).toBe(0);
    expect(await axeViolations(member)).toEqual([]);
  });

  it('the audit log pages through older changes 50 at a time', async () => {
    // Six changes so far; 45 more (three users in each of 15 requests, within the free plan's writes per minute) make 51: a full page and one older entry.
    for (let i = 1; i <= 15; i++) {
      const users = [MEMBER, ANA, BEN].map((email) => ({ email, limit: 10_000_000 + i }));
      expect((await apiCall(s, 'PUT', '/api/v0/organization/usage/limits/users', { users })).status).toBe(200);
    }
    const { page } = s;
    await page.goto(`${s.server.url}/settings/usage-limits/audit`);
    const rows = page.getByTestId('audit-log').locator('tbody tr');
    await rows
      .first()
      .filter({ hasText: /10\D?000\D?014 → 10\D?000\D?015/ })
      .waitFor();
    expect(await rows.count()).toBe(50);
    await page.getByRole('button', { name: 'Older changes' }).click();
    await page.getByText('Changes of usage limits, newest first (page 2)').waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toMatch(/for everyone.*no limit → 5\D?000\D?000/);
    expect(await page.getByRole('button', { name: 'Older changes' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Newer changes' }).click();
    await rows.nth(49).waitFor();
    expect(await rows.first().textContent()).toMatch(/10\D?000\D?014 → 10\D?000\D?015/);
  });

  it('broke no Content-Security-Policy rule', () => {
    expect(s.cspViolations).toEqual([]);
  });
});
