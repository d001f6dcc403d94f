import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium, overflowPx } from './browser.js';
import { apiCall, ownerSignedInAt, type SignedIn, signedInOwner } from './signed-in-server.js';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };
const VIEWPORTS = [WIDE, NARROW];
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Issue 45, "The first day": a new organization's overview leads through getting started, empty
 * analytics say why and where to go, today's usage shows as it arrives, and an unknown address
 * is a 404 inside the app. The tests run in order: the organization gains its first usage,
 * member, limit and report as they go.
 */
describe.skipIf(!hasChromium)('the first day in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  const contexts: BrowserContext[] = [];

  async function ownerAt(viewport: { width: number; height: number }): Promise<Page> {
    const page = await ownerSignedInAt(s, viewport);
    contexts.push(page.context());
    return page;
  }
  const step = (page: Page, id: string) => page.getByTestId(`step-${id}`);

  beforeAll(async () => {
    s = await signedInOwner();
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`1. a new organization's overview gives the four first steps with this service's address (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      const panel = page.getByRole('region', { name: 'Getting started' });
      await panel.waitFor();
      expect(await page.getByTestId('getting-started-progress').textContent()).toBe('0 of 4 done');
      for (const id of ['agent', 'team', 'limit', 'evaluate']) expect(await step(page, id).getAttribute('data-done')).toBe('false');
      const settings = await page.getByTestId('agent-settings').textContent();
      expect(settings).toContain(`export OTEL_EXPORTER_OTLP_ENDPOINT=${s.server.url}\n`);
      expect(settings).toContain('export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf');
      expect(settings).toContain('export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $ORGCTL_API_KEY"');
      expect(await page.getByTestId('getting-started-evaluate').textContent()).toBe(`orgctl readiness evaluate --upload --url ${s.server.url}`);
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowPx(page)).toBeLessThanOrEqual(0);
    });
  }

  for (const viewport of VIEWPORTS) {
    it(`2. analytics without any usage say why and lead to connecting an agent or the demo, no blank chart (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      for (const area of ['credits', 'tools', 'activity', 'productivity']) {
        await page.goto(`${s.server.url}/analytics/${area}?days=7`);
        const empty = page.getByTestId('analytics-empty');
        await empty.filter({ hasText: 'No usage has reached this service yet' }).waitFor();
        expect(await empty.textContent(), area).toContain('orgctl serve --demo');
        expect(await page.locator('.chart, .u-over').count(), area).toBe(0);
      }
      const connect = page.getByRole('link', { name: 'Connect an agent' });
      expect(await connect.getAttribute('href')).toBe('/#getting-started');
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowPx(page)).toBeLessThanOrEqual(0);
      await connect.click();
      await page.getByRole('region', { name: 'Getting started' }).waitFor();
    });
  }

  for (const viewport of VIEWPORTS) {
    it(`4. an unknown address is a 404 page inside the app's navigation (${viewport.width} px)`, async () => {
      const page = await ownerAt(viewport);
      for (const path of ['/no-such-page', '/analytics/no-such-page', '/settings/nothing/here']) {
        await page.goto(`${s.server.url}${path}`);
        await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
        expect(await page.getByTestId('not-found').textContent(), path).toContain(`There is no page at ${path}.`);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        expect(await page.getByTestId('signed-in-as').textContent()).toBe(s.owner.email);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflowPx(page)).toBeLessThanOrEqual(0);
      await page.getByTestId('not-found').getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
    });
  }

  it('3. today so far: usage sent now shows on the overview and My usage while they are open, and the agent step ticks itself', async () => {
    const overview = await ownerAt(WIDE);
    const usage = await ownerAt(NARROW);
    await usage.goto(`${s.server.url}/usage`);
    await overview.getByTestId('today-mine-credits').waitFor();
    expect(await overview.getByTestId('today-mine-credits').textContent()).toBe('0');
    expect(await overview.getByTestId('today-org-credits').textContent()).toBe('0');
    await usage.getByTestId('today-mine-credits').waitFor();
    expect(await usage.getByTestId('today-org-credits').count()).toBe(0);
    const at = new Date(Date.now() - 1000).toISOString();
    const events = [
      { id: 'fd-1', type: 'session_start', timestamp: at, sessionId: 'fd', client: 'terminal-ui', delegationLevel: 'spec' },
      { id: 'fd-2', type: 'tool_call', timestamp: at, sessionId: 'fd', client: 'terminal-ui', tool: 'Read', autonomyLevel: 'manual' },
      // A model outside the catalogue counts with multiplier 1: 1000 + 234 = 1,234 credits and tokens.
      {
        id: 'fd-3',
        type: 'model_request',
        timestamp: at,
        sessionId: 'fd',
        client: 'terminal-ui',
        model: 'first-day-model',
        tier: 'standard',
        inputTokens: 1000,
        outputTokens: 234,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
    ];
    expect((await apiCall(s, 'POST', '/api/v1/telemetry/events', { events })).status).toBe(202);
    // No reload: the pages read today again on their own.
    for (const page of [overview, usage]) {
      await page.getByTestId('today-mine-credits').filter({ hasText: '1,234' }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('today-mine-tokens').textContent()).toBe('1,234');
      expect(await page.getByTestId('today-mine-sessions').textContent()).toBe('1');
      expect(await page.getByTestId('today-mine-tool-calls').textContent()).toBe('1');
    }
    expect(await overview.getByTestId('today-org-credits').textContent()).toBe('1,234');
    await step(overview, 'agent').and(overview.locator('[data-done="true"]')).waitFor();
    expect(await overview.getByTestId('getting-started-progress').textContent()).toBe('1 of 4 done');
    expect(await axeViolations(overview)).toEqual([]);
    expect(await axeViolations(usage)).toEqual([]);
    expect(await overflowPx(usage)).toBeLessThanOrEqual(0);
  });

  it('2. analytics of a range without usage, once usage has arrived today, say that it counts from tomorrow', async () => {
    const page = await ownerAt(WIDE);
    await page.goto(`${s.server.url}/analytics/credits?days=7`);
    const empty = page.getByTestId('analytics-empty');
    await empty.waitFor();
    await empty.filter({ hasText: `Usage has arrived since ${today()}` }).waitFor();
    expect(await empty.textContent()).toContain('usage of today shows here tomorrow');
    expect(await empty.textContent()).not.toContain('orgctl serve --demo');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('1. each step ticks itself as it happens, and the panel is gone once all four are done', async () => {
    const page = await ownerAt(WIDE);
    await page.getByRole('region', { name: 'Getting started' }).waitFor();
    expect((await apiCall(s, 'POST', '/api/v0/organization/invitations', { email: 'first@web.test', role: 'member' })).status).toBe(201);
    await page.reload();
    await step(page, 'team').and(page.locator('[data-done="true"]')).waitFor();
    expect(await step(page, 'limit').getAttribute('data-done')).toBe('false');
    expect((await apiCall(s, 'PUT', '/api/v0/organization/usage/limits/global', { limit: 5_000_000 })).status).toBe(200);
    await page.reload();
    await step(page, 'limit').and(page.locator('[data-done="true"]')).waitFor();
    expect(await page.getByTestId('getting-started-progress').textContent()).toBe('3 of 4 done');
    expect(await axeViolations(page)).toEqual([]);
    const criteria = (await apiCall<{ criteria: { id: string }[] }>(s, 'GET', '/api/organization/readiness-criteria')).body.criteria;
    const report = await apiCall(s, 'POST', '/api/organization/maturity-level-reports', {
      repoUrl: 'https://github.com/Acme/first-day.git',
      apps: { '.': { description: 'the app' } },
      report: { [criteria[0]!.id]: { numerator: 1, denominator: 1, rationale: 'found it' } },
      commitHash: 'cccccccccccc3333',
      branch: 'main',
    });
    expect(report.status).toBe(201);
    await page.reload();
    await page.getByTestId('today-mine-credits').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);
  });
});
