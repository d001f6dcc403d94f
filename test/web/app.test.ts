import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { axeViolations, CHROMIUM, hasChromium, sharedBrowser } from './browser.js';
import { installation } from '../helpers/installation.js';
import { onCleanup } from '../helpers/cleanup.js';

const SETUP_TOKEN = 'browser-test-setup-token';
const OWNER = { email: 'owner@example.com', password: 'owner password 123' };
const MEMBER = { email: 'new.member@example.com', password: 'member password 123', name: 'New Member' };

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

describe.skipIf(!hasChromium)('the web app in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let server: Server;
  let browser: Browser;
  let owner: BrowserContext;
  let ownerPage: Page;
  const cspViolations: string[] = [];

  const watch = (page: Page) => {
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    return page;
  };

  beforeAll(async () => {
    // A first start: no organization yet.
    const env = await installation();
    server = await startServer({ ...env, ORGCTL_SETUP_TOKEN: SETUP_TOKEN });
    onCleanup(async () => void (await server.stop()));
    browser = await sharedBrowser();
    onCleanup(() => browser.close());
    owner = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ownerPage = watch(await owner.newPage());
  }, 120_000);

  it('orgctl serve prints the one-time setup URL; setting the owner password there signs the owner in', async () => {
    const setupUrl = `${server.url}/setup#token=${SETUP_TOKEN}`;
    expect(server.output()).toContain(`  ${setupUrl}\n`);
    const res = await ownerPage.goto(setupUrl);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await ownerPage.getByRole('heading', { name: 'Set up orgctl' }).waitFor();
    expect(await axeViolations(ownerPage)).toEqual([]);
    await ownerPage.getByLabel('Owner password (at least 10 characters)').fill(OWNER.password);
    await ownerPage.getByLabel('Repeat it').fill(OWNER.password);
    await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await ownerPage.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await ownerPage.getByTestId('signed-in-as').textContent()).toBe(OWNER.email);
    const cookies = await owner.cookies();
    expect(cookies.find((c) => c.name === '__Host-orgctl_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await axeViolations(ownerPage)).toEqual([]);
  });

  it('the setup link works once', async () => {
    const other = await browser.newContext();
    try {
      const page = watch(await other.newPage());
      await page.goto(`${server.url}/setup#token=${SETUP_TOKEN}`);
      await page.getByLabel('Owner password (at least 10 characters)').fill('someone else 123');
      await page.getByLabel('Repeat it').fill('someone else 123');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    } finally {
      await other.close();
    }
  });

  it('signs out and in again with email and password', async () => {
    await ownerPage.getByRole('link', { name: 'Sign out' }).click();
    await ownerPage.getByRole('heading', { name: 'Signed out' }).waitFor();
    await ownerPage.goto(`${server.url}/`);
    await ownerPage.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(ownerPage)).toEqual([]);
    await ownerPage.getByLabel('Email').fill(OWNER.email);
    await ownerPage.getByLabel('Password').fill('not the password');
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();
    await ownerPage.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    await ownerPage.getByLabel('Password').fill(OWNER.password);
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();
    await ownerPage.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  it('creates an API key in Settings whose secret, shown once, calls the API', async () => {
    await ownerPage.getByRole('link', { name: 'API keys' }).click();
    await ownerPage.getByRole('heading', { name: 'API keys' }).waitFor();
    await ownerPage.getByLabel('Name').fill('made in the browser');
    await ownerPage.getByRole('button', { name: 'Create key' }).click();
    const secret = (await ownerPage.getByTestId('new-key-secret').textContent())!;
    expect(secret).toMatch(/^ock_/);
    const me = await fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: OWNER.email, role: 'owner', credential: { type: 'api_key' } });
    await ownerPage.getByRole('cell', { name: 'made in the browser', exact: true }).waitFor();
    expect(await ownerPage.getByRole('cell', { name: `${secret.slice(0, 10)}…` }).count()).toBe(1);
    expect(await axeViolations(ownerPage)).toEqual([]);

    // Revoked in the page, the key authenticates nothing any more.
    const row = ownerPage.getByRole('row').filter({ hasText: 'made in the browser' });
    await row.getByRole('button', { name: 'Revoke made in the browser' }).click();
    await row.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
  });

  let memberContext: BrowserContext;
  let memberPage: Page;

  it('invites a member, who accepts the link in a fresh browser and sees no admin pages', async () => {
    await ownerPage.getByRole('link', { name: 'Members' }).click();
    await ownerPage.getByRole('heading', { name: 'Members' }).waitFor();
    await ownerPage.getByLabel('Email').fill(MEMBER.email);
    await ownerPage.getByLabel('Role', { exact: true }).selectOption('member');
    await ownerPage.getByRole('button', { name: 'Create invitation link' }).click();
    const link = (await ownerPage.getByTestId('invitation-url').textContent())!;
    expect(link).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9_-]{43}$`));
    expect(await axeViolations(ownerPage)).toEqual([]);

    memberContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    memberPage = watch(await memberContext.newPage());
    await memberPage.goto(link);
    await memberPage.getByRole('heading', { name: 'Join your organization' }).waitFor();
    expect(await axeViolations(memberPage)).toEqual([]);
    await memberPage.getByLabel('Your name (optional)').fill(MEMBER.name);
    await memberPage.getByLabel('Password (at least 10 characters)').fill(MEMBER.password);
    await memberPage.getByLabel('Repeat it').fill(MEMBER.password);
    await memberPage.getByRole('button', { name: 'Accept invitation' }).click();
    await memberPage.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await memberPage.getByTestId('signed-in-as').textContent()).toBe(MEMBER.email);
    const nav = memberPage.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'My usage' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Members' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(1);

    await nav.getByRole('link', { name: 'My usage' }).click();
    await memberPage.getByRole('heading', { name: 'My usage' }).waitFor();
    await memberPage.getByText(/No activity from/).waitFor();
    expect(await axeViolations(memberPage)).toEqual([]);

    // Opened directly (a deep link), the admin page is answered by the app, which says no.
    await memberPage.goto(`${server.url}/settings/members`);
    await memberPage.getByText('Only owners and managers manage members.').waitFor();
  });

  it('a demotion in Settings ends the member’s session at once', async () => {
    await ownerPage.reload();
    const role = ownerPage.getByLabel(`Role of ${MEMBER.email}`);
    await role.waitFor();
    await role.selectOption('guest');
    await ownerPage.waitForResponse((r) => r.url().includes('/api/v0/organization/members/') && r.request().method() === 'PATCH');
    await memberPage.goto(`${server.url}/settings/profile`);
    await memberPage.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('the profile page, opened by a deep link, lists the sessions and changes the password', async () => {
    await ownerPage.goto(`${server.url}/settings/profile`);
    await ownerPage.getByRole('heading', { name: 'Profile and sessions' }).waitFor();
    await ownerPage.getByText('(this one)').waitFor();
    expect(await axeViolations(ownerPage)).toEqual([]);
    await ownerPage.getByLabel('Current password').fill(OWNER.password);
    await ownerPage.getByLabel('New password (at least 10 characters)').fill('owner password 456');
    await ownerPage.getByLabel('Repeat it').fill('owner password 456');
    await ownerPage.getByRole('button', { name: 'Change password' }).click();
    await ownerPage.getByText('Password changed').waitFor();
    // The renewed session still writes: its new CSRF token was picked up.
    await ownerPage.getByRole('link', { name: 'API keys' }).click();
    await ownerPage.getByLabel('Name').fill('after the password change');
    await ownerPage.getByRole('button', { name: 'Create key' }).click();
    await ownerPage.getByTestId('new-key-secret').waitFor();
  });

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspViolations).toEqual([]);
  });
});
