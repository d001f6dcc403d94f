import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium, overflowPx, pastTheEdge } from './browser.js';
import { apiCall, ownerSignedInAt, type SignedIn, signedInAs, signedInOwner } from './signed-in-server.js';

const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const MODELS = Array.from({ length: 12 }, (_, i) => `model-${String(i + 1).padStart(2, '0')}`);
const WIDE = { width: 1280, height: 800 };
/** What the checks below read of elements in the page (this file is compiled without the DOM's types). */
type Box = { getBoundingClientRect(): { width: number }; getClientRects(): { length: number } };
type Styles = { getComputedStyle(e: unknown): { borderColor: string } };
const NARROW = { width: 390, height: 844 };

/** Records every text drawn on a canvas (uPlot draws its axes there), in window.__drawn. */
const RECORD_CANVAS_TEXT = `
  window.__drawn = [];
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__drawn.push(String(text));
    return fillText.call(this, text, ...rest);
  };
`;

/** What a person met in the web app (sign-out, refusals, charts, forms, dates), each as they meet it in Chromium. */
describe.skipIf(!hasChromium)('feedback, charts and dates in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  let member: Page;
  const contexts: BrowserContext[] = [];

  /** A page of a fresh browser context at `viewport`, signed in as the owner at /login. */
  async function ownerAt(viewport: { width: number; height: number }): Promise<Page> {
    const page = await ownerSignedInAt(s, viewport);
    contexts.push(page.context());
    return page;
  }

  beforeAll(async () => {
    s = await signedInOwner();
    // Yesterday: a request of each of 12 models; tool calls on three days of the week.
    const events: Record<string, unknown>[] = MODELS.map((model, i) => ({
      id: `chart-model-${i}`,
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
          id: `chart-tool-${d}-${i}`,
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
  });

  for (const viewport of [WIDE, NARROW]) {
    it(`/logout opened directly signs out (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      await page.goto(`${s.server.url}/logout`);
      await page.getByRole('heading', { name: 'Signed out', exact: true }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowPx(page), await pastTheEdge(page)).toBeLessThanOrEqual(0);
      // The session is over: the app asks to sign in.
      await page.goto(`${s.server.url}/settings/profile`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    });
  }

  it('a sign-out the service refuses says so, not "Signed out"', async () => {
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

  it('a member on the analytics pages sees the 403 and nothing loading forever', async () => {
    for (const area of ['credits', 'tools', 'users']) {
      await member.goto(`${s.server.url}/analytics/${area}`);
      await member.getByRole('alert').filter({ hasText: 'needs one of the roles: owner, manager' }).first().waitFor();
      await member.waitForLoadState('networkidle');
      expect(await member.getByText('Loading…').count(), area).toBe(0);
    }
    expect(await axeViolations(member)).toEqual([]);
  });

  it('a chart of twelve models gives each its own colour', async () => {
    const page = await ownerAt(WIDE);
    await page.goto(`${s.server.url}/analytics/credits?days=7`);
    const plot = page.getByTestId('credits-chart-plot');
    await plot.locator('.u-legend tr.u-series').nth(MODELS.length).waitFor();
    const markers = plot.locator('.u-legend tr.u-series .u-marker');
    const colours = (await markers.evaluateAll((els) => els.map((e) => (globalThis as unknown as Styles).getComputedStyle(e).borderColor))).slice(1);
    expect(colours).toHaveLength(MODELS.length);
    expect(new Set(colours).size).toBe(MODELS.length);
    expect(await axeViolations(page)).toEqual([]);
  });

  /** The owner's page in Analytics → Users over the last 7 days, in a fresh context that records what canvases draw. */
  async function personPage(viewport: { width: number; height: number }): Promise<Page> {
    const page = await ownerAt(viewport);
    await page.context().addInitScript({ content: RECORD_CANVAS_TEXT });
    const me = await apiCall<{ principalId: string }>(s, 'GET', '/api/v0/me');
    await page.goto(`${s.server.url}/analytics/users/${me.body.principalId}?days=7`);
    await page.getByTestId('user-days').waitFor();
    return page;
  }

  it("a person's page: credits and tool calls each on an axis of their own", async () => {
    const page = await personPage(WIDE);
    const legend = (testId: string) => page.getByTestId(`${testId}-plot`).locator('.u-legend tr.u-series .u-label').allTextContents();
    expect((await legend('user-credits-chart')).slice(1)).toEqual(['Credits']);
    expect((await legend('user-tools-chart')).slice(1)).toEqual(['Tool calls']);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a person's page: a 7-day axis is labelled with days, not 12am and 12pm", async () => {
    const page = await personPage(WIDE);
    await page.locator('.u-over').first().waitFor();
    const drawn = await page.evaluate<string[]>('window.__drawn');
    expect(drawn.filter((t) => /am|pm/i.test(t))).toEqual([]);
    expect(drawn.filter((t) => /^\d{4}-\d{2}-\d{2}$/.test(t)).length).toBeGreaterThan(0);
  });

  it("a person's page is no wider than a 1280 px window", async () => {
    const page = await personPage(WIDE);
    expect(await overflowPx(page), await pastTheEdge(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("the computer name field's pattern is checked by the browser", async () => {
    const page = await ownerAt(WIDE);
    await page.goto(`${s.server.url}/computers`);
    const name = page.getByLabel('Name');
    await name.fill('a/b');
    await page.getByRole('button', { name: 'Create computer' }).click();
    expect(await name.evaluate((e) => (e as unknown as { validity: { patternMismatch: boolean } }).validity.patternMismatch)).toBe(true);
    await name.fill('ok-name');
    expect(await name.evaluate((e) => (e as unknown as { validity: { valid: boolean } }).validity.valid)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('members: after a 409 on a duplicate invitation, the next entry is not shown the old error', async () => {
    const page = await ownerAt(WIDE);
    await page.goto(`${s.server.url}/settings/members`);
    await page.getByLabel('Email').fill(s.owner.email);
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'already a member' });
    await conflict.waitFor();
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    expect(await conflict.count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const viewport of [WIDE, NARROW]) {
    it(`members: the last-owner error leaves the table's columns as they were (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      await page.goto(`${s.server.url}/settings/members`);
      const table = page.getByRole('table', { name: /^Users of/ });
      await page.getByLabel(`Role of ${s.owner.email}`).waitFor();
      const widths = () => table.locator('thead th').evaluateAll((els) => els.map((e) => Math.round((e as unknown as Box).getBoundingClientRect().width)));
      const before = await widths();
      await page.getByLabel(`Role of ${s.owner.email}`).selectOption('manager');
      await page.getByRole('alert').filter({ hasText: 'keeps at least one owner' }).waitFor();
      expect(await widths()).toEqual(before);
      expect(await overflowPx(page), await pastTheEdge(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  for (const viewport of [WIDE, NARROW]) {
    it(`one date style: ISO days and 24-hour UTC times, a day never broken at its hyphens (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      await page.goto(`${s.server.url}/settings/api-keys`);
      const table = page.getByRole('table');
      await table.locator('tbody tr').first().waitFor();
      const column = (await table.getByRole('columnheader').allTextContents()).indexOf('Created');
      const created = table.locator('tbody tr').first().locator('td').nth(column);
      expect(await created.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      await page.goto(`${s.server.url}/settings/profile`);
      await page.getByText('(this one)').waitFor();
      const days = page.locator('time .day, time.day');
      expect(await days.count()).toBeGreaterThan(0);
      // An inline box broken over two lines has two client rectangles.
      expect(await days.evaluateAll((els) => els.map((e) => (e as unknown as Box).getClientRects().length))).toEqual(Array(await days.count()).fill(1));
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
