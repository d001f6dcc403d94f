import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { CRITERIA } from '../../src/readiness/criteria.js';
import { TestApp, type Org } from '../helpers/test-app.js';

/** The summary's trend, on reports seeded at known times, every figure computed by hand. */

const PATH = '/api/organization/maturity-level-reports';
const SUMMARY = '/api/organization/agent-readiness-summary';
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T00:00:00Z');
let t: TestApp;
let org: Org;

type E = { numerator: number | null; denominator: number; rationale: string };
const all = (level: number, numerator: number): Record<string, E> =>
  Object.fromEntries(CRITERIA.filter((c) => c.level === level).map((c) => [c.id, { numerator, denominator: 1, rationale: 'r' }]));
type Point = { at: number; repositories: number; level: number; passRate: number };
type Trend = {
  period: string;
  since: number | null;
  organization: Point[];
  repositories: { repoId: string; points: { createdAt: number; level: number; passRate: number }[] }[];
};

/** A report of `repoUrl` stored as if uploaded `daysAgo` days before NOW. */
async function seed(repoUrl: string, report: Record<string, E>, daysAgo: number) {
  const res = await t.request<{ reportId: string }>('POST', PATH, { key: org.ownerKey, body: { repoUrl, apps: {}, report } });
  expect(res.status).toBe(201);
  await t.db.query('UPDATE readiness_reports SET created_at = $1 WHERE report_id = $2', [NOW - daysAgo * DAY, res.body.reportId]);
}
const trend = async (period?: string) => {
  const res = await t.request<{ trend: Trend }>('GET', `${SUMMARY}${period ? `?period=${period}` : ''}`, { key: org.ownerKey });
  expect(res.status).toBe(200);
  return res.body.trend;
};

// L1 has 7 criteria and L2 26: a report passing L1 and failing L2 has a pass rate of 7/33.
const A = 'https://github.com/acme/a';
const B = 'https://github.com/acme/b';
beforeAll(async () => {
  t = await TestApp.start({}, { clock: new TestClock(NOW) });
  org = await t.createOrg('trend-org');
  await seed(A, all(1, 1), 400); // level 2 (L2 not evaluated), pass rate 1
  await seed(B, all(1, 0), 100); // level 1, pass rate 0
  await seed(A, { ...all(1, 1), ...all(2, 0) }, 20); // level 2, pass rate 7/33
  await seed(A, { ...all(1, 1), ...all(2, 1) }, 2); // level 3, pass rate 1
});
afterAll(() => t?.close());

const org_ = (points: Point[]) => points.map((p) => [Math.round((NOW - p.at) / DAY), p.repositories, p.level, p.passRate]);

describe('the readiness trend', () => {
  it('7 days: the repositories stand where their last reports before the period left them', async () => {
    const tr = await trend('7d');
    // NOW is midnight UTC: 7 days are today and the 6 before.
    expect(tr).toMatchObject({ period: '7d', since: NOW - 6 * DAY });
    // After A's report of 2 days ago: A level 3 rate 1, B (from 100 days ago) level 1 rate 0.
    expect(org_(tr.organization)).toEqual([[2, 2, 2, 0.5]]);
    expect(tr.repositories.map((r) => [r.repoId, r.points.map((p) => [p.level, p.passRate])])).toEqual([['github.com/acme/a', [[3, 1]]]]);
  });

  it('1 month (the default), 6 months, 1 year and all', async () => {
    const month = [
      [20, 2, 1, 7 / 66],
      [2, 2, 2, 0.5],
    ];
    expect(org_((await trend()).organization)).toEqual(month);
    expect(org_((await trend('1m')).organization)).toEqual(month);
    const half = [[100, 2, 1, 0.5], ...month];
    expect(org_((await trend('6m')).organization)).toEqual(half);
    expect(org_((await trend('1y')).organization)).toEqual(half);
    const every = await trend('all');
    expect(every.since).toBeNull();
    expect(org_(every.organization)).toEqual([[400, 1, 2, 1], ...half]);
    expect(every.repositories.map((r) => [r.repoId, r.points.map((p) => [Math.round((NOW - p.createdAt) / DAY), p.level, p.passRate])])).toEqual([
      [
        'github.com/acme/a',
        [
          [400, 2, 1],
          [20, 2, 7 / 33],
          [2, 3, 1],
        ],
      ],
      ['github.com/acme/b', [[100, 1, 0]]],
    ]);
  });

  it('refuses a period it does not know', async () => {
    const res = await t.request('GET', `${SUMMARY}?period=2w`, { key: org.ownerKey });
    expect(res.status).toBe(400);
  });
});
