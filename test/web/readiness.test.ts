import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

type E = { numerator: number | null; denominator: number; rationale: string };
type Criteria = { criteria: { id: string; level: number }[] };
type Summary = {
  organization: { level: number | null };
  repositories: {
    repoId: string;
    latest: { level: number; passRate: number; pillars: { pillar: string; passed: number; evaluated: number }[] };
    history: { reportId: string; level: number }[];
  }[];
};

const REPORTS = '/api/organization/maturity-level-reports';
const REPO = 'https://github.com/Acme/API.git';
const REPO_ID = 'github.com/acme/api';

describe.skipIf(!hasChromium)('readiness pages in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let criteria: Criteria['criteria'];
  const ids = (level: number) => criteria.filter((c) => c.level === level).map((c) => c.id);
  const each = (level: number, e: E): Record<string, E> => Object.fromEntries(ids(level).map((id) => [id, e]));
  let older: string;
  let newer: string;

  beforeAll(async () => {
    s = await signedInOwner();
    criteria = (await apiCall<Criteria>(s, 'GET', '/api/organization/readiness-criteria')).body.criteria;
    // Older report: level 1 passes, level 2 fails: level 2.
    const first = await apiCall<{ reportId: string }>(s, 'POST', REPORTS, {
      repoUrl: REPO,
      apps: { '.': { description: 'the API' } },
      report: { ...each(1, { numerator: 1, denominator: 1, rationale: 'found it' }), ...each(2, { numerator: 0, denominator: 1, rationale: 'not found' }) },
      commitHash: 'aaaaaaaaaaaa1111',
      branch: 'main',
    });
    expect(first.status).toBe(201);
    older = first.body.reportId;
    // Newer report: levels 1 and 2 pass (strict_typing skipped), level 3 mostly fails: level 3.
    const second = await apiCall<{ reportId: string }>(s, 'POST', REPORTS, {
      repoUrl: REPO,
      apps: { 'packages/a': { description: 'a' }, 'packages/b': { description: 'b' } },
      report: {
        ...each(1, { numerator: 2, denominator: 2, rationale: 'found eslint.config.js (ESLint config)' }),
        ...each(2, { numerator: 2, denominator: 2, rationale: 'present' }),
        strict_typing: { numerator: null, denominator: 2, rationale: 'untyped: does not apply' },
        ...each(3, { numerator: 0, denominator: 2, rationale: 'absent' }),
        integration_tests_exist: {
          numerator: 1,
          denominator: 2,
          rationale: '1/2 (passes in packages/a; fails in packages/b): packages/a: integration/e2e tests: packages/a/e2e/x.test.ts; packages/b: none',
        },
      },
      commitHash: 'bbbbbbbbbbbb2222',
      branch: 'main',
    });
    expect(second.status).toBe(201);
    newer = second.body.reportId;
  }, 120_000);

  it('shows the organization level and the repository with its level, pass rate, pillars and trend', async () => {
    const summary = (await apiCall<Summary>(s, 'GET', '/api/organization/agent-readiness-summary')).body;
    const repo = summary.repositories[0]!;
    expect(repo.latest.level).toBe(3);
    expect(summary.organization.level).toBe(3);

    const { page } = s;
    // The overview (opened afresh: the owner landed there before the reports were uploaded) shows the same organization level.
    await page.goto(`${s.server.url}/`);
    await page.getByTestId('overview-readiness-level').filter({ hasText: 'Level 3' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Readiness' }).click();
    await page.getByRole('heading', { name: 'Readiness', exact: true }).waitFor();
    await page.getByTestId('org-level').filter({ hasText: 'Level 3' }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: REPO_ID }) });
    expect(await row.getByTestId('repo-level').textContent()).toBe('Level 3');
    expect(await row.textContent()).toContain(`${Math.round(repo.latest.passRate * 100)} %`);
    expect(await row.textContent()).toContain('2 reports');
    for (const p of repo.latest.pillars.filter((x) => x.evaluated > 0)) expect(await row.textContent()).toContain(`${p.pillar} ${p.passed}/${p.evaluated}`);
    // The trend says how the pass rate moved since the report before: up.
    expect(await row.getByTestId('trend').textContent()).toMatch(/^\+\d+ %$/);
    // The organization's trend over the default month: the two reports, level 2 after the first and 3 after the second.
    const trend = page.getByTestId('trend-card');
    await trend
      .getByTestId('trend-change')
      .filter({ hasText: /^From level 2 at \d+ % to level 3 at \d+ %, over 2 reports\.$/ })
      .waitFor();
    await trend.getByLabel('Period').selectOption('7d');
    await trend.getByTestId('trend-change').filter({ hasText: 'over 2 reports' }).waitFor();
    expect(await trend.getByTestId('trend-points').getByRole('row').count()).toBe(2);
    expect(await page.getByTestId('evaluate-command').textContent()).toBe(`orgctl readiness evaluate --upload --url ${s.server.url}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a repository page has one section per level, locked above the first level under 80 %, with [X/Y] rows, rationales and a skipped criterion', async () => {
    const { page } = s;
    await page.getByRole('link', { name: REPO_ID }).click();
    await page.getByRole('heading', { name: REPO_ID, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Latest report' }).waitFor();
    expect(await page.getByTestId('report-level').textContent()).toBe('Level 3');
    for (const level of [1, 2, 3]) expect(await page.getByTestId(`level-${level}`).getByRole('heading').textContent()).toMatch(/% passed$/);
    for (const level of [4, 5]) expect(await page.getByTestId(`level-${level}`).getByRole('heading').textContent()).toBe(`Level ${level} · locked`);

    const lint = page.getByTestId('criterion-lint_config');
    expect(await lint.getByRole('cell').first().textContent()).toBe('[2/2]');
    expect(await lint.textContent()).toContain('found eslint.config.js (ESLint config)');
    const skipped = page.getByTestId('criterion-strict_typing');
    expect(await skipped.getByRole('cell').first().textContent()).toBe('skipped');
    expect(await skipped.textContent()).toContain('untyped: does not apply');
    const integration = page.getByTestId('criterion-integration_tests_exist');
    expect(await integration.getByRole('cell').first().textContent()).toBe('[1/2]');
    // A monorepo's criterion says which application fails it and which passes.
    expect(await integration.getByTestId('apps-failing').textContent()).toBe('Fails in packages/b');
    expect(await integration.getByTestId('apps-passing').textContent()).toBe('Passes in packages/a');

    // The history holds both reports, newest first; the older one opens in place.
    const history = page.getByTestId('history').getByRole('row');
    expect(await history.count()).toBe(2);
    expect(await history.nth(0).textContent()).toContain('Level 3');
    expect(await history.nth(1).textContent()).toContain('Level 2');
    expect(await axeViolations(page)).toEqual([]);
    await history.nth(1).getByRole('button', { name: /Show/ }).click();
    await page.getByRole('heading', { name: 'An earlier report' }).waitFor();
    expect(page.url()).toContain(`report=${older}`);
    expect(await page.getByTestId('report-level').textContent()).toBe('Level 2');
    expect(await page.getByTestId('criterion-lint_config').getByRole('cell').first().textContent()).toBe('[1/1]');
    expect(await page.getByTestId('level-3').getByRole('heading').textContent()).toBe('Level 3 · locked');
    expect(newer).not.toBe(older);
  });

  it('broke no Content-Security-Policy rule', () => {
    expect(s.cspViolations).toEqual([]);
  });
});
