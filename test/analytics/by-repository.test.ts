import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { CRITERIA } from '../../src/readiness/criteria.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query, tokens } from './fixture.js';

/*
 * Analytics by repository, every figure worked out by hand (days 03-01..03-03; "unknown-model",
 * multiplier 1: a token is a credit, 5 cache-read tokens half a credit).
 *   A  s1 u1 03-01 (native repository): session, 100 credits, tool ok + tool error, commit, PR, merged PR
 *      s4 u3 03-03 (native repository): 10 + 5 cache read = 10.5 credits, merged PR
 *      s3 u1 03-02 told A first (native), then C by its SessionStart record: all of it moves to C
 *   B  s2 u2 03-01 200, 03-02 300 + merged PR, all before its SessionStart record; then 50 more on 03-02
 *   C  s3 u1 03-02: session, 1000 credits; then PR and 2 merged PRs whose events say D (a worse source: ignored)
 *   E  s6 u1 03-03: session, 100, PR, merged PR, tool error     F  s7 u2 03-03: session, 200, PR, tool ok
 *   G  s8 u3 03-03: 300, merged PR, 2 tools ok                   s5 u2: 7 credits, no repository
 * Readiness: A level 2 from 03-01 12:00, level 3 from 03-02 20:00; C, E, F, G level 1 since 02-20; B none.
 */
const NOW = Date.parse('2026-03-10T12:00:00Z');
const range = { startDate: '2026-03-01', endDate: '2026-03-03' };
const repo = (name: string) => ({ url: `https://user:secret@GitHub.com/Acme/${name}.git`, branch: 'main', commit: 'abcdef1' });
const id = (name: string) => `github.com/acme/${name.toLowerCase()}`;
type E = { numerator: number; denominator: number; rationale: string };
const all = (level: number, numerator: number): Record<string, E> =>
  Object.fromEntries(CRITERIA.filter((c) => c.level === level).map((c) => [c.id, { numerator, denominator: 1, rationale: 'r' }]));

let t: TestApp;
let org: Org;
const u: Record<string, string> = {};
const reportIds: Record<string, string> = {};

const at = (day: string, hour = 10) => `2026-03-${day}T${String(hour).padStart(2, '0')}:00:00Z`;
const credits = (user: string, day: string, session: string, input: number, cacheRead = 0, extra = {}) =>
  event(user, 'model_request', at(day), 'terminal-ui', { ...tokens('unknown-model', 'standard', input, 0, cacheRead, 0), ...extra }, session);
const plain = (user: string, type: string, day: string, session: string, fields: Record<string, unknown> = {}) =>
  event(user, type, at(day), 'terminal-ui', fields, session);
const start = (user: string, day: string, session: string, extra = {}) => plain(user, 'session_start', day, session, { delegationLevel: 'manual', ...extra });
const tool = (user: string, day: string, session: string, outcome: 'success' | 'error') =>
  plain(user, 'tool_call', day, session, { tool: 'Bash', autonomyLevel: 'manual', outcome });

async function attribute(userKey: string, session: string, body: unknown) {
  const res = await t.request('PUT', `/api/v1/telemetry/sessions/${session}/repository`, { key: userKey, body });
  expect(res.status).toBe(204);
}
async function seedReport(name: string, report: Record<string, E>, iso: string) {
  const res = await t.request<{ reportId: string }>('POST', '/api/organization/maturity-level-reports', {
    key: org.ownerKey,
    body: { repoUrl: `https://github.com/acme/${name}`, apps: {}, report },
  });
  expect(res.status).toBe(201);
  await t.db.query('UPDATE readiness_reports SET created_at = $1 WHERE report_id = $2', [Date.parse(iso), res.body.reportId]);
  reportIds[name] = res.body.reportId;
}

beforeAll(async () => {
  t = await TestApp.start({}, { clock: new TestClock(NOW) });
  org = await t.createOrg('by-repo');
  const keys: Record<string, string> = {};
  for (const name of ['u1', 'u2', 'u3']) {
    const user = await t.addUser(org, 'member', `${name}@repo.test`);
    u[name] = user.id;
    keys[name] = user.key;
  }
  const { u1, u2, u3 } = u as Record<'u1' | 'u2' | 'u3', string>;
  await ingest(t, org, [
    start(u1, '01', 's1', { repository: repo('A') }),
    credits(u1, '01', 's1', 100),
    tool(u1, '01', 's1', 'success'),
    tool(u1, '01', 's1', 'error'),
    plain(u1, 'git_commit', '01', 's1'),
    plain(u1, 'pr_created', '01', 's1'),
    plain(u1, 'pr_merged', '01', 's1'),
    credits(u2, '01', 's2', 200),
    credits(u2, '02', 's2', 300),
    plain(u2, 'pr_merged', '02', 's2'),
    start(u1, '02', 's3', { repository: repo('A') }),
    credits(u1, '02', 's3', 1000),
    credits(u3, '03', 's4', 10, 5, { repository: repo('A') }),
    plain(u3, 'pr_merged', '03', 's4'),
    credits(u2, '02', 's5', 7),
  ]);
  // Late: both sessions' usage so far moves to the repository of their SessionStart record.
  await attribute(keys.u2!, 's2', repo('B'));
  await attribute(keys.u1!, 's3', { url: 'git@github.com:acme/c.git' });
  await ingest(t, org, [
    credits(u2, '02', 's2', 50),
    plain(u1, 'pr_created', '02', 's3', { repository: repo('D') }),
    plain(u1, 'pr_merged', '02', 's3', { repository: repo('D') }),
    plain(u1, 'pr_merged', '02', 's3'),
    start(u1, '03', 's6', { repository: repo('E') }),
    credits(u1, '03', 's6', 100),
    plain(u1, 'pr_created', '03', 's6'),
    plain(u1, 'pr_merged', '03', 's6'),
    tool(u1, '03', 's6', 'error'),
    start(u2, '03', 's7', { repository: repo('F') }),
    credits(u2, '03', 's7', 200),
    plain(u2, 'pr_created', '03', 's7'),
    tool(u2, '03', 's7', 'success'),
    credits(u3, '03', 's8', 300, 0, { repository: repo('G') }),
    plain(u3, 'pr_merged', '03', 's8'),
    tool(u3, '03', 's8', 'success'),
    tool(u3, '03', 's8', 'success'),
  ]);
  // The same SessionStart record again, and a worse source later, change nothing.
  await attribute(keys.u2!, 's2', repo('B'));
  await seedReport('a', all(1, 1), '2026-03-01T12:00:00Z');
  await seedReport('a', { ...all(1, 1), ...all(2, 1) }, '2026-03-02T20:00:00Z');
  for (const name of ['c', 'e', 'f', 'g']) await seedReport(name, all(1, 0), '2026-02-20T00:00:00Z');
});
afterAll(() => t?.close());

const get = async <T>(path: string, params: Record<string, string | undefined>) => {
  const res = await t.request<T>('GET', query(path, { ...range, ...params }), { key: org.ownerKey });
  expect(res.status, res.raw).toBe(200);
  return res.body;
};
type Row = Record<string, unknown> & { repository: string; readiness: { date: string; level: number | null }[] };

describe('the repositories report', () => {
  it('gives each repository its usage, people, pull requests and level each day, most credits first', async () => {
    const { data } = await get<{ data: Row[] }>('repositories', {});
    expect(data.map((r) => r.repository)).toEqual(['c', 'b', 'g', 'f', 'a', 'e'].map(id));
    const by = Object.fromEntries(data.map((r) => [r.repository, r]));
    expect(by[id('a')]).toMatchObject({
      billable_tokens: 111,
      input_tokens: 110,
      cache_read_tokens: 5,
      tokens: 115,
      sessions: 1,
      active_people: 2,
      tool_calls: 2,
      tool_errors: 1,
      git_commits: 1,
      git_prs_created: 1,
      git_prs_merged: 2,
      credits_per_merged_pr: 55.25,
      latest_report_id: reportIds.a,
    });
    expect(by[id('a')]!.readiness.map((x) => x.level)).toEqual([2, 3, 3]);
    expect(by[id('b')]).toMatchObject({
      billable_tokens: 550,
      sessions: 0,
      active_people: 1,
      git_prs_merged: 1,
      credits_per_merged_pr: 550,
      latest_report_id: null,
    });
    expect(by[id('b')]!.readiness.map((x) => x.level)).toEqual([null, null, null]);
    expect(by[id('c')]).toMatchObject({
      billable_tokens: 1000,
      sessions: 1,
      active_people: 1,
      git_prs_created: 1,
      git_prs_merged: 2,
      credits_per_merged_pr: 500,
    });
    expect(by[id('c')]!.readiness).toEqual([
      { date: '2026-03-01', level: 1 },
      { date: '2026-03-02', level: 1 },
      { date: '2026-03-03', level: 1 },
    ]);
    expect(by[id('f')]).toMatchObject({ billable_tokens: 200, git_prs_merged: 0, credits_per_merged_pr: null });
    expect(by[id('d')]).toBeUndefined();
  });

  it('takes a repository filter by id or by any URL of it', async () => {
    const { data } = await get<{ data: Row[] }>('repositories', { repository: 'ssh://git@github.com:22/acme/b' });
    expect(data.map((r) => [r.repository, r.billable_tokens])).toEqual([[id('b'), 550]]);
    const res = await t.request('GET', query('repositories', { ...range, repository: 'javascript:alert(1)' }), { key: org.ownerKey });
    expect(res.status).toBe(400);
  });

  it('groups /tokens and /activity by repository', async () => {
    const tokensRows = await get<{ data: unknown[] }>('tokens', { group_by: 'repository', startDate: '2026-03-02', endDate: '2026-03-02' });
    expect(tokensRows.data).toEqual([
      { date: '2026-03-02', group_key: id('b'), billable_tokens: 350, input_tokens: 350, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
      { date: '2026-03-02', group_key: id('c'), billable_tokens: 1000, input_tokens: 1000, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
    ]);
    const activity = await get<{ data: unknown[] }>('activity', { group_by: 'repository', startDate: '2026-03-01', endDate: '2026-03-01' });
    expect(activity.data).toEqual([
      { date: '2026-03-01', group_key: id('a'), daily_active_users: 1 },
      { date: '2026-03-01', group_key: id('b'), daily_active_users: 1 },
    ]);
    const one = await get<{ data: unknown[] }>('tokens', { group_by: 'repository', repository: id('c') });
    expect(one.data).toHaveLength(1);
  });
});

describe('readiness pays?', () => {
  it('groups repository-days by their level, with a figure only where enough repositories stand behind it', async () => {
    const body = await get<{ data: Record<string, unknown>[]; meta: { min_repositories: number } }>('repositories/readiness', {});
    expect(body.meta.min_repositories).toBe(3);
    const [l1, l2, l3, l4, l5, none] = body.data;
    // Level 1: C on 03-02, E, F and G on 03-03.
    expect(l1).toEqual({
      level: 1,
      repositories: 4,
      days: 4,
      billable_tokens: 1600,
      sessions: 3,
      tool_calls: 4,
      tool_errors: 1,
      git_prs_created: 3,
      git_prs_merged: 4,
      credits_per_merged_pr: 400,
      sessions_per_pr: 1,
      tool_error_rate: 0.25,
    });
    expect(l2).toMatchObject({
      level: 2,
      repositories: 1,
      days: 1,
      billable_tokens: 100,
      credits_per_merged_pr: null,
      sessions_per_pr: null,
      tool_error_rate: null,
    });
    expect(l3).toMatchObject({ level: 3, repositories: 1, days: 1, billable_tokens: 11, git_prs_merged: 1, credits_per_merged_pr: null });
    expect([l4, l5].map((l) => [l!.level, l!.repositories, l!.days])).toEqual([
      [4, 0, 0],
      [5, 0, 0],
    ]);
    expect(none).toMatchObject({ level: null, repositories: 1, days: 2, billable_tokens: 550 });
  });
});
