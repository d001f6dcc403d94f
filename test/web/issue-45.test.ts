import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium } from './browser.js';
import { apiCall, OWNER, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const MODELS = Array.from({ length: 12 }, (_, i) => `model-${String(i + 1).padStart(2, '0')}`);
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

/** The bugs of issue 45 in the web app, each as a person meets it in Chromium. */
describe.skipIf(!hasChromium)('issue 45 in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  let member: Page;
  const contexts: BrowserContext[] = [];

  /** A page of a fresh browser context at `viewport`, signed in as the owner at /login. */
  async function ownerAt(viewport: { width: number; height: number }): Promise<Page> {
    const context = await s.browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${s.server.url}/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }
  const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  /** The elements that reach past the window's right edge, for the message of a failed overflow check. */
  const pastTheEdge = (page: Page) =>
    page.evaluate<string>(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`,
    );

  beforeAll(async () => {
    s = await signedInOwner({ RATE_LIMITS: 'false' });
    // Yesterday: a request of each of 12 models; tool calls on three days of the week.
    const events: Record<string, unknown>[] = MODELS.map((model, i) => ({
      id: `i45-model-${i}`,
      type: 'model_request',
      timestamp: `${day(-1)}T10:00:00Z`,
      sessionId: 's1',
      client: 'terminal-ui',
      model,
      tier: 'standard',
      inputTokens: 1000 * (i + 1),
      outputTokens: 10,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    }));
    for (const d of [-1, -3, -5])
      for (let i = 0; i < 4; i++)
        events.push({
          id: `i45-tool-${d}-${i}`,
          type: 'tool_call',
          timestamp: `${day(d)}T11:00:00Z`,
          sessionId: 's1',
          client: 'terminal-ui',
          tool: 'Read',
          autonomyLevel: 'auto-high',
        });
    expect((await apiCall(s, 'POST', '/api/v1/telemetry/events', { events })).status).toBe(202);
    member = await signedInAs(s, 'member', 'member@web.test');
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await s?.close();
  });

  for (const viewport of [WIDE, NARROW]) {
    it(`1. /logout opened directly signs out (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      await page.goto(`${s.server.url}/logout`);
      await page.getByRole('heading', { name: 'Signed out', exact: true }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflow(page), await pastTheEdge(page)).toBeLessThanOrEqual(0);
      // The session is over: the app asks to sign in.
      await page.goto(`${s.server.url}/settings/profile`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    });
  }

  it('1. a sign-out the service refuses says so, not "Signed out"', async () => {
    const page = await ownerAt(WIDE);
    await page.route('**/api/v0/session/logout', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 503, detail: 'The service is not ready.' }) }),
    );
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('alert').filter({ hasText: 'The service is not ready.' }).waitFor();
    await page.getByRole('heading', { name: 'Not signed out' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Signed out', exact: true }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.unroute('**/api/v0/session/logout');
  });

  it('5. a member on the analytics pages sees the 403 and nothing loading forever', async () => {
    for (const area of ['credits', 'tools', 'users']) {
      await member.goto(`${s.server.url}/analytics/${area}`);
      await member.getByRole('alert').filter({ hasText: 'needs one of the roles: owner, manager' }).first().waitFor();
      await member.waitForLoadState('networkidle');
      expect(await member.getByText('Loading…').count(), area).toBe(0);
    }
    expect(await axeViolations(member)).toEqual([]);
  });
});
