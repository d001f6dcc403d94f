import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, expectErrorObject, type Org } from '../helpers/test-app.js';
import { dayFromToday, event, ingest, query, tokens } from './fixture.js';

let t: TestApp;
let org: Org;
let active: { id: string; email: string; key: string };
let idle: { id: string; email: string; key: string };
let member: { id: string; email: string; key: string };
const range = { startDate: '2026-09-01', endDate: '2026-09-03' };

type TotalsRow = {
  user_id: string;
  user_email: string | null;
  active_days: number;
  last_active_date: string | null;
  billable_tokens: number;
  tool_calls: number;
  git_commits: number;
  sessions: number;
};
type UserRows = {
  data: { user_id: string; date: string; billable_tokens: number; tool_calls: number }[];
  meta: { has_more: boolean; next_cursor: string | null };
};

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('totals-org');
  active = await t.addUser(org, 'manager', 'active@totals.test');
  idle = await t.addUser(org, 'member', 'idle@totals.test');
  member = await t.addUser(org, 'member', 'member@totals.test');
  await ingest(t, org, [
    event(active.id, 'session_start', '2026-09-01T09:00:00Z', 'web', { delegationLevel: 'spec' }),
    event(active.id, 'tool_call', '2026-09-01T09:01:00Z', 'web', { tool: 'Read', autonomyLevel: 'manual' }),
    // 0.5 × (300 + 100 + 55/10) = 202.75 on each of two days: 405.5 over the range, rounded once to 406.
    event(active.id, 'model_request', '2026-09-01T09:02:00Z', 'web', tokens('gpt-5', 'standard', 300, 100, 55, 0)),
    event(active.id, 'model_request', '2026-09-03T09:02:00Z', 'web', tokens('gpt-5', 'standard', 300, 100, 55, 0)),
    event(active.id, 'git_commit', '2026-09-03T10:00:00Z', 'web'),
    // Outside the range: not counted.
    event(active.id, 'git_commit', '2026-09-05T10:00:00Z', 'web'),
    event(member.id, 'git_commit', '2026-08-31T10:00:00Z', 'web'),
  ]);
});
afterAll(() => t?.close());

describe('GET /api/v1/analytics/users/totals', () => {
  it('lists every user of the organization with sums over the range, active or not, credits rounded once', async () => {
    const res = await t.request<{ data: TotalsRow[]; meta: Record<string, string> }>('GET', query('users/totals', range), { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ org_id: org.orgId, start_date: range.startDate, end_date: range.endDate });
    const ids = [org.ownerId, active.id, idle.id, member.id].sort();
    expect(res.body.data.map((r) => r.user_id)).toEqual(ids);
    const byId = new Map(res.body.data.map((r) => [r.user_id, r]));
    expect(byId.get(active.id)).toMatchObject({
      user_email: 'active@totals.test',
      role: 'manager',
      active_days: 2,
      last_active_date: '2026-09-03',
      billable_tokens: 406,
      tool_calls: 1,
      git_commits: 1,
      sessions: 1,
    });
    expect(byId.get(idle.id)).toMatchObject({ user_email: 'idle@totals.test', active_days: 0, last_active_date: null, billable_tokens: 0, tool_calls: 0 });
    expect(byId.get(member.id)).toMatchObject({ active_days: 0, git_commits: 0 });
  });

  it('answers every user with zeros for a range before the first day of data', async () => {
    const res = await t.request<{ data: TotalsRow[] }>('GET', query('users/totals', { startDate: '2026-01-01', endDate: '2026-01-10' }), { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(4);
    expect(res.body.data.every((r) => r.active_days === 0)).toBe(true);
  });

  it('validates the range like the other analytics endpoints and refuses members with 403', async () => {
    expectErrorObject(await t.request('GET', query('users/totals', { startDate: '2026-09-03', endDate: '2026-09-01' }), { key: org.ownerKey }), 400);
    expectErrorObject(await t.request('GET', query('users/totals', { startDate: '2026-09-01', endDate: dayFromToday(0) }), { key: org.ownerKey }), 400);
    expectErrorObject(await t.request('GET', query('users/totals', range), { key: member.key }), 403);
    expectErrorObject(await t.request('GET', query('users/totals', range)), 401);
  });
});

describe('GET /api/v1/analytics/users?user_id=', () => {
  it("answers that user's rows alone, on one page", async () => {
    const res = await t.request<UserRows>('GET', query('users', { ...range, user_id: active.id, limit: 1 }), { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => [r.user_id, r.date, r.billable_tokens])).toEqual([
      [active.id, '2026-09-01', 203],
      [active.id, '2026-09-03', 203],
    ]);
    expect(res.body.meta).toMatchObject({ has_more: false, next_cursor: null });
    const all = await t.request<UserRows>('GET', query('users', { ...range, limit: 100 }), { key: org.ownerKey });
    expect(all.body.data.filter((r) => r.user_id === active.id)).toEqual(res.body.data);
  });

  it('answers no rows for a user without activity or of no organization, and 400 for a user id that is not a UUID', async () => {
    for (const id of [idle.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request<UserRows>('GET', query('users', { ...range, user_id: id }), { key: org.ownerKey });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
    expectErrorObject(await t.request('GET', query('users', { ...range, user_id: 'nope' }), { key: org.ownerKey }), 400);
  });

  it("never shows another organization's user", async () => {
    const other = await t.createOrg('totals-other');
    const res = await t.request<UserRows>('GET', query('users', { ...range, user_id: active.id }), { key: other.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('GET /api/v0/usage/allowance?user_id=', () => {
  it("lets owners and managers read another user's allowance, and nobody else", async () => {
    const own = await t.request<{ used: number; organization: unknown }>('GET', '/api/v0/usage/allowance', { key: active.key });
    const asOwner = await t.request<{ used: number; source: string; organization: unknown }>('GET', `/api/v0/usage/allowance?user_id=${active.id}`, {
      key: org.ownerKey,
    });
    expect(asOwner.status).toBe(200);
    // The same allowance; the organization's forecast comes only with a manager's own reading (docs/usage-limits.md).
    expect({ ...asOwner.body, organization: null }).toEqual({ ...own.body, organization: null });
    expect(asOwner.body.organization).toBeNull();
    expect((await t.request('GET', `/api/v0/usage/allowance?user_id=${idle.id}`, { key: active.key })).status).toBe(200);
    expect((await t.request('GET', `/api/v0/usage/allowance?user_id=${member.id}`, { key: member.key })).status).toBe(200);
    expectErrorObject(await t.request('GET', `/api/v0/usage/allowance?user_id=${active.id}`, { key: member.key }), 403);
    expectErrorObject(await t.request('GET', '/api/v0/usage/allowance?user_id=00000000-0000-4000-8000-000000000000', { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('GET', '/api/v0/usage/allowance?user_id=x', { key: org.ownerKey }), 400);
  });
});
