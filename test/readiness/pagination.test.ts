import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/maturity-level-reports';
const REPOS = ['https://github.com/acme/one.git', 'git@github.com:acme/two.git', 'ssh://git@gitlab.example.com:2222/acme/three'];
const REPO_IDS = ['github.com/acme/one', 'github.com/acme/two', 'gitlab.example.com/acme/three'];

interface Item {
  reportId: string;
  createdAt: number;
  repoId: string;
}

let t: TestApp;
let org: Org;
let all: Item[] = [];

const body = (repoUrl: string, i: number) => ({
  repoUrl,
  apps: { '.': { description: `app ${i}` } },
  report: { tests: { numerator: i % 3, denominator: 3, rationale: `run ${i}` } },
});

const upload = async (repoUrl: string, i: number) => {
  const res = await t.request<Item>('POST', PATH, { key: org.ownerKey, body: body(repoUrl, i) });
  expect(res.status).toBe(201);
  return res.body;
};

/** Newest first, then by reportId: the order the contract promises. */
const expected = (items: Item[]) => [...items].sort((a, b) => b.createdAt - a.createdAt || (a.reportId < b.reportId ? -1 : 1)).map((r) => r.reportId);

async function walk(limit: number, repoId?: string, between?: () => Promise<void>): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: String(limit) });
    if (repoId) q.set('repoId', repoId);
    if (cursor) q.set('startAfter', cursor);
    const res = await t.request<{ reports: Item[] }>('GET', `${PATH}?${q}`, { key: org.ownerKey });
    expect(res.status).toBe(200);
    const page = res.body.reports;
    if (page.length === 0) break;
    pages.push(page.length);
    ids.push(...page.map((r) => r.reportId));
    cursor = page.at(-1)!.reportId;
    await between?.();
  }
  return { ids, pages };
}

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('paging-org');
  for (let i = 0; i < 300; i++) all.push(await upload(REPOS[i % 3]!, i));
  // A burst: a third of the reports share one millisecond (the oldest one stored), as many
  // uploads within one millisecond would. Only the clock value is set here, through SQL.
  const burst = all.filter((_, i) => i % 3 !== 2 && i % 2 === 0).map((r) => r.reportId);
  const ms = Math.min(...all.map((r) => r.createdAt));
  await t.db.query(`UPDATE readiness_reports SET created_at = $1 WHERE report_id = ANY($2::uuid[])`, [ms, burst]);
  all = all.map((r) => (burst.includes(r.reportId) ? { ...r, createdAt: ms } : r));
  expect(burst.length).toBeGreaterThanOrEqual(90);
}, 120_000);
afterAll(() => t?.close());

describe('pagination over 300 reports of three repositories', () => {
  it.each([1, 2, 7, 100, 250])('walks to the end with limit %i, unfiltered, with no report skipped or repeated', async (limit) => {
    const { ids, pages } = await walk(limit);
    expect(ids).toEqual(expected(all));
    const size = Math.min(limit, 100);
    expect(pages.slice(0, -1).every((n) => n === size)).toBe(true);
  });

  it.each([1, 2, 7, 100, 250])('walks to the end with limit %i for each repository', async (limit) => {
    for (const repoId of REPO_IDS) {
      const { ids } = await walk(limit, repoId);
      expect(ids).toEqual(expected(all.filter((r) => r.repoId === repoId)));
      expect(ids).toHaveLength(100);
    }
  });

  it('serves 20 reports without a limit and 100 for a limit above 100', async () => {
    expect((await t.request<{ reports: Item[] }>('GET', PATH, { key: org.ownerKey })).body.reports).toHaveLength(20);
    expect((await t.request<{ reports: Item[] }>('GET', `${PATH}?limit=100000`, { key: org.ownerKey })).body.reports).toHaveLength(100);
  });

  it('reports uploaded while a client pages appear before its cursor, never inside the rest of its walk', async () => {
    const before = expected(all);
    const added: Item[] = [];
    let n = 0;
    const { ids } = await walk(13, undefined, async () => {
      // Two uploads at once between every page, one of them for a filtered repository.
      added.push(...(await Promise.all([upload(REPOS[0]!, 1000 + n), upload(REPOS[1]!, 2000 + n)])));
      n++;
    });
    expect(ids).toEqual(before);
    expect(new Set(ids).size).toBe(ids.length);
    // A fresh walk sees everything, the new reports first.
    const fresh = await walk(50);
    expect(fresh.ids).toEqual(expected([...all, ...added]));
    expect(new Set(fresh.ids.slice(0, added.length))).toEqual(new Set(added.map((r) => r.reportId)));
    all.push(...added);
  });
});
