import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { apiCall, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const PATH = '/api/v0/organization/usage/enforcement';
type Policy = { mode: string; thresholds: number[]; unreachable: string };

describe.skipIf(!hasChromium)('Settings → usage limits → Enforcement in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let member: Page;

  beforeAll(async () => {
    s = await signedInOwner();
    member = await signedInAs(s, 'member', 'member@web.test');
  }, 120_000);

  it('an owner sees the defaults, changes mode, thresholds and unreachable, and the API, the page and the audit log agree', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/settings/usage-limits`);
    const card = page.getByRole('region', { name: 'Enforcement' });
    await card
      .getByTestId('enforcement-mode')
      .filter({ hasText: /^Block:/ })
      .waitFor();
    expect(await card.getByTestId('enforcement-thresholds').textContent()).toBe('80%, 95%');
    expect(await card.getByTestId('enforcement-unreachable').textContent()).toBe('Let prompts through');
    expect(await axeViolations(page)).toEqual([]);

    await card.getByLabel('Mode').selectOption('warn');
    await card.getByLabel('Warning thresholds (percent of the limit, ascending, up to 5)').fill('50, 75%, 90');
    await card.getByLabel('When the service cannot be reached').selectOption('closed');
    await card.getByRole('button', { name: 'Save enforcement' }).click();
    await card.getByRole('status').filter({ hasText: 'Enforcement saved.' }).waitFor();
    await card.getByTestId('enforcement-thresholds').filter({ hasText: '50%, 75%, 90%' }).waitFor();
    expect(await card.getByTestId('enforcement-mode').textContent()).toMatch(/^Warn:/);
    expect(await card.getByTestId('enforcement-unreachable').textContent()).toBe('Refuse prompts (in block mode)');
    expect((await apiCall<Policy>(s, 'GET', PATH)).body).toEqual({ mode: 'warn', thresholds: [50, 75, 90], unreachable: 'closed' });

    await page.getByRole('link', { name: 'Audit log of limit changes' }).click();
    const row = page.getByTestId('audit-log').getByRole('row').nth(1);
    await row.filter({ hasText: 'enforcement policy' }).waitFor();
    expect(await row.textContent()).toContain('block, thresholds 80% 95%, unreachable open → warn, thresholds 50% 75% 90%, unreachable closed');
  });

  it("the API's refusal of descending thresholds is shown and nothing changes; text that is no percent is refused before the call", async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/settings/usage-limits`);
    const card = page.getByRole('region', { name: 'Enforcement' });
    const field = card.getByLabel('Warning thresholds (percent of the limit, ascending, up to 5)');
    await field.fill('90, 60');
    await card.getByRole('button', { name: 'Save enforcement' }).click();
    await card.getByRole('alert').filter({ hasText: 'body/thresholds/1 must be greater than the threshold before it (90): thresholds ascend' }).waitFor();
    await field.fill('eighty');
    await card.getByRole('button', { name: 'Save enforcement' }).click();
    await card.getByRole('alert').filter({ hasText: 'Enter whole percents separated by commas' }).waitFor();
    expect((await apiCall<Policy>(s, 'GET', PATH)).body.thresholds).toEqual([50, 75, 90]);
  });

  it('a member reads the policy but has no form to change it', async () => {
    await member.goto(`${s.server.url}/settings/usage-limits`);
    const card = member.getByRole('region', { name: 'Enforcement' });
    await card.getByTestId('enforcement-thresholds').filter({ hasText: '50%, 75%, 90%' }).waitFor();
    expect(await card.getByRole('button', { name: 'Save enforcement' }).count()).toBe(0);
    expect(await card.getByRole('combobox').count()).toBe(0);
    expect(await axeViolations(member)).toEqual([]);
  });
});
