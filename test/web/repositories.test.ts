import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { flatten } from '../../src/client/csv-rows.js';
import { lastLevelRows } from '../../src/client/repository-rows.js';
import { axeViolations, downloaded, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
type Row = Record<string, unknown> & { readiness: { level: number | null }[] };

/*
 * The Repositories page in Chromium against a real `orgctl serve`. Three repositories' sessions,
 * sent natively yesterday with their repository: api 3,000 credits and 1 merged PR, web 2,000 and
 * 2, cli 1,000 and 1 (a credit a token: an unknown model). api has a readiness report (uploaded
 * today, so yesterday it had no level yet).
 */
describe.skipIf(!hasChromium)('the Repositories page in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  let reportId: string;

  beforeAll(async () => {
    s = await signedInOwner();
    const at = `${day(-1)}T10:00:00Z`;
    const events = [
      ['api', 3000, 1],
      ['web', 2000, 2],
      ['cli', 1000, 1],
    ].flatMap(([name, credits, merged]) => {
      const common = { timestamp: at, sessionId: `s-${name}`, client: 'terminal-ui', repository: { url: `https://github.com/Acme/${name}.git` } };
      return [
        {
          ...common,
          id: `m-${name}`,
          type: 'model_request',
          model: 'unknown-model',
          tier: 'standard',
          inputTokens: credits,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        ...Array.from({ length: merged as number }, (_, i) => ({ ...common, id: `pr-${name}-${i}`, type: 'pr_merged' })),
      ];
    });
    expect((await apiCall(s, 'POST', '/api/v1/telemetry/events', { events })).status).toBe(202);
    const criteria = (await apiCall<{ criteria: { id: string; level: number }[] }>(s, 'GET', '/api/organization/readiness-criteria')).body.criteria;
    const report = Object.fromEntries(criteria.filter((c) => c.level === 1).map((c) => [c.id, { numerator: 1, denominator: 1, rationale: 'found' }]));
    const uploaded = await apiCall<{ reportId: string }>(s, 'POST', '/api/organization/maturity-level-reports', {
      repoUrl: 'https://github.com/Acme/api',
      apps: {},
      report,
    });
    expect(uploaded.status).toBe(201);
    reportId = uploaded.body.reportId;
  }, 180_000);

  const range = () => ({ startDate: day(-7), endDate: day(-1) });
  async function download(name: string): Promise<string> {
    const [file] = await Promise.all([s.page.waitForEvent('download'), s.page.getByRole('button', { name }).click()]);
    return await downloaded(file);
  }
  function expectCsvRows(csv: string, rows: Record<string, unknown>[]) {
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(rows.length);
    rows.forEach((row, i) => expect(records[i]).toEqual(Object.fromEntries(Object.entries(flatten(row)).map(([k, v]) => [k, v === null ? '' : String(v)]))));
  }
  const repoNames = async () => (await s.page.getByTestId('repositories-table').locator('tbody th').allTextContents()).map((t) => t.trim());

  it('lists each repository with its usage, sorts by any column in the URL, charts the levels, and its CSVs hold the API rows', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/analytics/repositories?days=7`);
    await page.getByTestId('repositories-table').getByRole('row').filter({ hasText: 'github.com/acme/cli' }).waitFor();
    expect(await repoNames()).toEqual(['github.com/acme/api', 'github.com/acme/web', 'github.com/acme/cli']);
    const web = page.getByTestId('repositories-table').getByRole('row').filter({ hasText: 'github.com/acme/web' });
    // 2,000 credits over 2 merged PRs.
    expect(await web.textContent()).toMatch(/2\D?000.*1\D?000/);
    await page.getByRole('button', { name: 'Repository', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'repository' && u.searchParams.get('asc') === 'true');
    expect(await repoNames()).toEqual(['github.com/acme/api', 'github.com/acme/cli', 'github.com/acme/web']);
    await page.getByRole('button', { name: 'Credits per merged PR', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'credits_per_merged_pr');
    expect(await repoNames()).toEqual(['github.com/acme/api', 'github.com/acme/cli', 'github.com/acme/web']);

    // Three repositories stand behind the days without a report: 6,000 credits over 4 merged PRs.
    await page.getByTestId('levels-chart-plot').locator('canvas').waitFor();
    await page
      .getByTestId('levels-table')
      .getByRole('row')
      .filter({ hasText: 'No report' })
      .filter({ hasText: /1\D?500/ })
      .waitFor();
    await page.getByLabel('Figure').selectOption('tool_error_rate');
    await page.waitForURL((u) => u.searchParams.get('figure') === 'tool_error_rate');
    await page.getByRole('figure', { name: 'Tool error rate by readiness level' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const q = new URLSearchParams(range());
    const rows = (await apiCall<{ data: Row[] }>(s, 'GET', `/api/v1/analytics/repositories?${q}`)).body.data;
    expectCsvRows(await download('Download CSV (per repository)'), lastLevelRows(rows));
    const levels = (await apiCall<{ data: Record<string, unknown>[] }>(s, 'GET', `/api/v1/analytics/repositories/readiness?${q}`)).body.data;
    expectCsvRows(await download('Download CSV (per level)'), levels);
  });

  it("links a repository to its latest readiness report, and the report back to the repository's usage", async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/analytics/repositories?days=7`);
    await page.getByRole('link', { name: 'Latest report of github.com/acme/api' }).click();
    await page.waitForURL((u) => u.pathname === '/readiness/repository' && u.searchParams.get('report') === reportId);
    await page.getByRole('heading', { name: 'github.com/acme/api' }).waitFor();
    expect(await page.getByRole('link', { name: /Latest report of github.com\/acme\/(web|cli)/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Agent usage in this repository' }).click();
    await page.waitForURL((u) => u.pathname === '/analytics/repositories' && u.searchParams.get('repo') === 'github.com/acme/api');
    await page.getByTestId('repositories-table').getByRole('row').filter({ hasText: 'github.com/acme/api' }).waitFor();
    expect(await repoNames()).toEqual(['github.com/acme/api']);
    expect(await axeViolations(page)).toEqual([]);
  });
});
