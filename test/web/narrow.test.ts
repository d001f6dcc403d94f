import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium, overflowPx, pastTheEdge } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

/**
 * Issue 45, phones and narrow windows: at 390 px every page of the app fits the window (the
 * navigation above the page, wide tables scrolling in their own box), with nothing for axe to
 * report, for an organization with usage, members, keys, limits, a computer and a report.
 */
const PAGES = [
  '/',
  '/usage',
  '/analytics/credits',
  '/analytics/tools',
  '/analytics/activity',
  '/analytics/productivity',
  '/analytics/users',
  '/readiness',
  '/computers',
  '/ci',
  '/settings/members',
  '/settings/api-keys',
  '/settings/service-accounts',
  '/settings/usage-limits',
  '/settings/usage-limits/audit',
  '/settings/profile',
  '/no-such-page',
];

describe.skipIf(!hasChromium)('every page at 390 px in Chromium', { timeout: 240_000 }, () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await signedInOwner();
    // Something on every page: a member, a service account with a key, a limit and its audit row, a computer.
    expect((await apiCall(s, 'POST', '/api/v0/organization/invitations', { email: 'someone.with.a.long.address@example.com', role: 'member' })).status).toBe(
      201,
    );
    const account = await apiCall<{ id: string }>(s, 'POST', '/api/v0/organization/service-accounts', { name: 'continuous-integration-bot', role: 'member' });
    expect((await apiCall(s, 'POST', '/api/v0/api-keys', { name: 'GitHub Actions of the main repository', principalId: account.body.id })).status).toBe(201);
    expect((await apiCall(s, 'PUT', '/api/v0/organization/usage/limits/global', { limit: 20_000_000 })).status).toBe(200);
    expect(
      (await apiCall(s, 'POST', '/api/v0/computers', { name: 'a-laptop', repos: ['https://github.com/acme/a-repository-with-a-long-name.git'] })).status,
    ).toBe(201);
  }, 240_000);

  it('no page is wider than the window, and axe finds nothing', async () => {
    const context = await s.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await s.context.storageState() });
    const page = await context.newPage();
    const wider: string[] = [];
    for (const path of PAGES) {
      await page.goto(`${s.server.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await overflowPx(page);
      if (overflow > 0) wider.push(`${path}: ${overflow} px (${await pastTheEdge(page)})`);
      expect(await axeViolations(page), path).toEqual([]);
    }
    expect(wider).toEqual([]);
    await context.close();
  });
});
