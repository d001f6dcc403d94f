import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITERIA } from '../../src/readiness/criteria.js';
import { TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/maturity-level-reports';
const SUMMARY = '/api/organization/agent-readiness-summary';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('summary-org');
});
afterAll(() => t?.close());

type E = { numerator: number | null; denominator: number; rationale: string };
const ids = (level: number) => CRITERIA.filter((c) => c.level === level).map((c) => c.id);
const all = (level: number, numerator: number): Record<string, E> =>
  Object.fromEntries(ids(level).map((id) => [id, { numerator, denominator: 1, rationale: 'r' }]));
const upload = async (repoUrl: string, report: Record<string, E>) => {
  const res = await t.request<{ reportId: string; createdAt: number }>('POST', PATH, { key: org.ownerKey, body: { repoUrl, apps: {}, report } });
  expect(res.status).toBe(201);
  return res.body;
};

type Summary = {
  organization: { level: number | null; repositories: number; lastEvaluatedAt: number | null };
  repositories: {
    repoId: string;
    reports: number;
    latest: {
      reportId: string;
      level: number;
      bandLevel: number;
      passRate: number;
      pillars: { pillar: string; passed: number; evaluated: number; rate: number | null }[];
    };
    history: { reportId: string; level: number }[];
  }[];
};

describe('GET /api/organization/agent-readiness-summary', () => {
  it('is empty, with no organization level, before any report', async () => {
    const res = await t.request<Summary>('GET', SUMMARY, { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organization: { level: null, repositories: 0, lastEvaluatedAt: null },
      repositories: [],
      trend: { period: '1m', since: expect.any(Number), organization: [], repositories: [] },
    });
  });

  it('gives each repository its latest level (80 % rule), band level, pass rate, pillars and history; the organization the mean level rounded down', async () => {
    expect(ids(1)).toHaveLength(7);
    expect(ids(2)).toHaveLength(26);
    // api: first every level-1 criterion passes and no level-2 one (level 2, pass rate 7/33);
    // then levels 1 and 2 all pass and level 3 is not evaluated (level 3, pass rate 1).
    const a1 = await upload('https://github.com/acme/api', { ...all(1, 1), ...all(2, 0) });
    const a2 = await upload('git@github.com:acme/api.git', { ...all(1, 1), ...all(2, 1) });
    // web: of level 1, five pass, one passes half its applications, one is skipped (mean 5.5/6).
    const [s1, s2, s3, s4, s5, half, skipped] = ids(1);
    const web = await upload('https://github.com/acme/web', {
      ...Object.fromEntries([s1, s2, s3, s4, s5].map((id) => [id!, { numerator: 1, denominator: 1, rationale: '' }])),
      [half!]: { numerator: 1, denominator: 2, rationale: 'one of two apps' },
      [skipped!]: { numerator: null, denominator: 1, rationale: 'skipped' },
      not_a_known_criterion: { numerator: 1, denominator: 1, rationale: 'counted in the pass rate only' },
    });

    const { body } = await t.request<Summary>('GET', SUMMARY, { key: (await t.addUser(org, 'guest')).key });
    expect(body.organization).toEqual({ level: 2, repositories: 2, lastEvaluatedAt: web.createdAt });
    const [api, webRepo] = body.repositories;
    expect(api!.repoId).toBe('github.com/acme/api');
    expect(api!.reports).toBe(2);
    expect(api!.latest).toMatchObject({ reportId: a2.reportId, level: 3, bandLevel: 5, passRate: 1 });
    expect(api!.history.map((h) => [h.reportId, h.level])).toEqual([
      [a2.reportId, 3],
      [a1.reportId, 2],
    ]);
    expect(webRepo!.repoId).toBe('github.com/acme/web');
    expect(webRepo!.latest.level).toBe(2);
    expect(webRepo!.latest.passRate).toBeCloseTo(6.5 / 7, 10);
    expect(webRepo!.latest.bandLevel).toBe(5);
    const pillarsCounted = webRepo!.latest.pillars.reduce((s, p) => s + p.evaluated, 0);
    expect(pillarsCounted).toBe(6);
    expect(webRepo!.latest.pillars.reduce((s, p) => s + p.passed, 0)).toBe(5);
    const halfPillar = CRITERIA.find((c) => c.id === half)!.pillar;
    const p = webRepo!.latest.pillars.find((x) => x.pillar === halfPillar)!;
    expect(p.evaluated).toBeGreaterThan(p.passed);
  });

  it('answers 401 without a credential', async () => {
    expect((await t.request('GET', SUMMARY)).status).toBe(401);
  });
});
