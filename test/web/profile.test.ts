import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium, overflowPx, pastTheEdge } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

/** Issue 45, "The first day": one's own profile, revoking an invitation, select all, and keys named by their holder, in Chromium. */
describe.skipIf(!hasChromium)('the profile page on the first day, in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  const contexts: BrowserContext[] = [];

  async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
    const context = await s.browser.newContext({ viewport });
    contexts.push(context);
    return context.newPage();
  }
  async function signIn(viewport: { width: number; height: number }, email: string, password: string): Promise<Page> {
    const page = await pageAt(viewport);
    await page.goto(`${s.server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }
  /** A member of the organization with `password`, invited with the owner's key and accepted over the API. */
  async function addMember(email: string, password = 'a password 123'): Promise<void> {
    const invited = await apiCall<{ token: string }>(s, 'POST', '/api/v0/organization/invitations', { email, role: 'member' });
    expect(invited.status).toBe(201);
    const res = await fetch(`${s.server.url}/api/v0/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ token: invited.body.token, password }),
    });
    expect(res.status).toBe(200);
  }
  const fits = async (page: Page) => {
    expect(await axeViolations(page)).toEqual([]);
    expect(await overflowPx(page), await pastTheEdge(page)).toBeLessThanOrEqual(0);
  };

  beforeAll(async () => {
    s = await signedInOwner();
    await addMember('sel-a@web.test');
    await addMember('sel-b@web.test');
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  for (const viewport of [WIDE, NARROW]) {
    const w = viewport.width;

    it(`1. Profile: one changes their own name and email, stays signed in, and signs in with the new email (${w} px)`, async () => {
      await addMember(`pat-${w}@web.test`, 'pat password 123');
      const page = await signIn(viewport, `pat-${w}@web.test`, 'pat password 123');
      await page.goto(`${s.server.url}/settings/profile`);
      await page.getByRole('heading', { name: 'Profile and sessions', level: 1 }).waitFor();
      const email = page.getByLabel('Email (you sign in with it)');
      expect(await email.inputValue()).toBe(`pat-${w}@web.test`);

      // An email another user has: the API's 409, gone as soon as the entry changes.
      await email.fill(s.owner.email);
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: `already has the email ${s.owner.email}` })
        .waitFor();
      await fits(page);
      await email.fill(`Pat.Renamed-${w}@web.test`);
      expect(await page.getByRole('alert').count()).toBe(0);

      await page.getByLabel('Name').fill(`Pat ${w}`);
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Saved. Sign in with pat.renamed-${w}@web.test from now on` })
        .waitFor();
      await page
        .getByTestId('signed-in-as')
        .filter({ hasText: `pat.renamed-${w}@web.test` })
        .waitFor();
      await fits(page);

      // The session is still good after a reload, and the page shows the new values.
      await page.reload();
      await page.getByRole('heading', { name: 'Profile and sessions', level: 1 }).waitFor();
      expect(await page.getByLabel('Name').inputValue()).toBe(`Pat ${w}`);
      expect(await email.inputValue()).toBe(`pat.renamed-${w}@web.test`);
      // The new email signs in; the old one no longer does.
      await signIn(viewport, `pat.renamed-${w}@web.test`, 'pat password 123');
      const old = await fetch(`${s.server.url}/api/v0/session/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ email: `pat-${w}@web.test`, password: 'pat password 123' }),
      });
      expect(old.status).toBe(401);
    });

    it(`2. Members: a pending invitation is revoked from its row after a confirmation (${w} px)`, async () => {
      const invited = await apiCall<{ id: string; url: string }>(s, 'POST', '/api/v0/organization/invitations', { email: `inv-${w}@web.test`, role: 'member' });
      expect(invited.status).toBe(201);
      const page = await signIn(viewport, s.owner.email, s.owner.password);
      await page.goto(`${s.server.url}/settings/members`);
      const row = page.getByRole('row').filter({ hasText: `inv-${w}@web.test` });
      await row.waitFor();
      await fits(page);
      const revoke = row.getByRole('button', { name: `Revoke the invitation of inv-${w}@web.test` });
      page.once('dialog', (d) => void d.dismiss());
      await revoke.click();
      expect(await row.count()).toBe(1);
      page.once('dialog', (d) => {
        expect(d.message()).toContain(`inv-${w}@web.test`);
        void d.accept();
      });
      await revoke.click();
      await row.waitFor({ state: 'detached' });
      const pending = await apiCall<{ invitations: { id: string }[] }>(s, 'GET', '/api/v0/organization/invitations');
      expect(pending.body.invitations.map((i) => i.id)).not.toContain(invited.body.id);
      // Its link is dead.
      await page.goto(invited.body.url);
      await page.getByLabel('Password (at least 10 characters)').fill('a password 123');
      await page.getByLabel('Repeat it').fill('a password 123');
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /not found/i })
        .waitFor();
    });

    it(`3. Usage limits: "Select all" chooses every member shown, or those the filter matches (${w} px)`, async () => {
      const page = await signIn(viewport, s.owner.email, s.owner.password);
      await page.goto(`${s.server.url}/settings/usage-limits`);
      const all = page.getByRole('checkbox', { name: 'Select all', exact: true });
      await all.check();
      const members = (await apiCall<{ members: unknown[] }>(s, 'GET', '/api/v0/organization/members')).body.members.length;
      await page.getByText(`Members (${members} chosen of ${members})`).waitFor();
      await fits(page);
      await all.uncheck();
      await page.getByText(`Members (0 chosen of ${members})`).waitFor();

      await page.getByLabel('Filter members').fill('sel-');
      const shown = page.getByRole('checkbox', { name: 'Select all 2 shown' });
      await shown.check();
      expect(await page.getByRole('checkbox', { name: /sel-a@web\.test/ }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: /sel-b@web\.test/ }).isChecked()).toBe(true);
      await page.getByText(`Members (2 chosen of ${members})`).waitFor();
      // One unchosen: the box is neither checked nor clear.
      await page.getByRole('checkbox', { name: /sel-b@web\.test/ }).uncheck();
      expect(await shown.evaluate((e: unknown) => (e as { indeterminate: boolean }).indeterminate)).toBe(true);
      await shown.check();
      await page.getByLabel('Limit for them (Standard Credits, at least 1,000,000)').fill(`${w === 1280 ? 6 : 9},000,000`);
      await page.getByRole('button', { name: 'Set for the chosen users' }).click();
      await page.getByTestId('bulk-result').filter({ hasText: 'sel-a@web.test' }).filter({ hasText: 'sel-b@web.test' }).waitFor();
      await fits(page);
    });

    it(`4. API keys: a service account's key shows the account's name, not its id (${w} px)`, async () => {
      const bot = await apiCall<{ id: string }>(s, 'POST', '/api/v0/organization/service-accounts', { name: `deploy-bot-${w}`, role: 'member' });
      expect(bot.status).toBe(201);
      expect((await apiCall(s, 'POST', '/api/v0/api-keys', { principalId: bot.body.id, name: `bot key ${w}` })).status).toBe(201);
      const page = await signIn(viewport, s.owner.email, s.owner.password);
      await page.goto(`${s.server.url}/settings/api-keys`);
      const row = page.getByRole('row').filter({ hasText: `bot key ${w}` });
      await row.getByRole('cell', { name: `deploy-bot-${w} (service account)` }).waitFor();
      expect(await row.textContent()).not.toContain(bot.body.id);
      await page.getByRole('row').filter({ hasText: 'owner key' }).getByRole('cell', { name: s.owner.email }).waitFor();
      await fits(page);
    });
  }
});
