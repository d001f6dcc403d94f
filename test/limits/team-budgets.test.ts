import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;

const TEAMS = '/api/v0/organization/teams';
const BUDGETS = '/api/v0/organization/usage/limits/teams';

type User = { id: string; key: string; email: string };
type Allowance = {
  limit: number | null;
  source: string;
  teamId?: string;
  teamName?: string;
  used: number;
  remaining: number | null;
  budgets: { scope: string; teamId?: string; teamName?: string; limit: number; used: number; remaining: number }[];
};

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('budgets-org');
});
afterAll(() => t?.close());

/** Model requests this month worth `credits` (claude-sonnet-4-5: 1.2 credits an input token), a minute ago. */
async function use(user: User, credits: number, id: string): Promise<void> {
  const res = await t.request('POST', '/api/v1/telemetry/events', {
    key: user.key,
    body: {
      events: [
        {
          id,
          type: 'model_request',
          timestamp: Date.now() - 60_000,
          sessionId: 's',
          client: 'terminal-ui',
          model: 'claude-sonnet-4-5',
          tier: 'standard',
          inputTokens: credits / 1.2,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
      ],
    },
  });
  expect(res.status).toBe(202);
}

const team = async (name: string, members: User[]) => {
  const res = await t.request<{ id: string }>('POST', TEAMS, { key: org.ownerKey, body: { name, userIds: members.map((m) => m.id) } });
  expect(res.status).toBe(201);
  return res.body.id;
};
const setBudget = (teamId: string, limit: number | null, key = org.ownerKey) => t.request('PUT', `${BUDGETS}/${teamId}`, { key, body: { limit } });
/**
 * The forecast of a budget whose use all happened today (a minute ago): no use in the rate window
 * before today, so the month ends where it stands (on the 1st there is no rate yet). The method is
 * test/limits/forecast.test.ts's.
 */
const steady = (used: number) =>
  new Date().getUTCDate() === 1 ? { dailyRate: null, projectedUsed: null, limitReachedOn: null } : { dailyRate: 0, projectedUsed: used, limitReachedOn: null };
const allowance = async (u: User) => (await t.request<Allowance>('GET', '/api/v0/usage/allowance', { key: u.key })).body;

describe('team budgets: set, listed, audited, and the tightest budget binds the allowance', () => {
  let ana: User, ben: User, cleo: User, dan: User;
  let platform: string, mobile: string;

  beforeAll(async () => {
    ana = await t.addUser(org, 'member');
    ben = await t.addUser(org, 'member');
    cleo = await t.addUser(org, 'member');
    dan = await t.addUser(org, 'manager');
    platform = await team('Platform', [ana, ben]);
    mobile = await team('Mobile', [ana, cleo]);
    await use(ana, 1_200_000, 'a');
    await use(ben, 1_200_000, 'b');
    await use(cleo, 600_000, 'c');
  });

  it('owners and managers set and remove a budget (at least 1,000,000); members get 403; an unknown team 404; each real change is audited with the team name', async () => {
    expect((await setBudget(platform, 3_000_000)).body).toEqual({ teamId: platform, teamName: 'Platform', limit: 3_000_000 });
    expect((await setBudget(mobile, 2_000_000, dan.key)).status).toBe(200);
    expect((await setBudget(mobile, 2_000_000, dan.key)).status).toBe(200); // no change: no entry
    expect((await setBudget(mobile, 999_999)).status).toBe(400);
    expect((await setBudget(mobile, 5_000_000, ana.key)).status).toBe(403);
    const unknown = await setBudget('00000000-0000-4000-8000-000000000000', 5_000_000);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ metadata: { code: 'team_not_found' } });
    expect((await t.request<{ monthlyBudget: number | null }>('GET', `${TEAMS}/${platform}`, { key: ana.key })).body.monthlyBudget).toBe(3_000_000);

    const audit = await t.request<{ entries: Record<string, unknown>[] }>('GET', '/api/v0/organization/usage/limits/audit', { key: org.ownerKey });
    expect(audit.body.entries.map((e) => [e.scope, e.targetTeamName, e.oldLimit, e.newLimit, e.actorEmail])).toEqual([
      ['team', 'Mobile', null, 2_000_000, dan.email],
      ['team', 'Platform', null, 3_000_000, `owner@budgets-org.test`],
    ]);
    expect(audit.body.entries[0]).toMatchObject({ targetTeamId: mobile, targetEmail: null });
  });

  it("a team's use is all its members' this month together; the list shows each team's", async () => {
    const list = await t.request<{ teams: unknown[] }>('GET', BUDGETS, { key: ana.key });
    expect(list.body.teams).toEqual([
      { scope: 'team', teamId: mobile, teamName: 'Mobile', limit: 2_000_000, used: 1_800_000, remaining: 200_000, forecast: steady(1_800_000) },
      { scope: 'team', teamId: platform, teamName: 'Platform', limit: 3_000_000, used: 2_400_000, remaining: 600_000, forecast: steady(2_400_000) },
    ]);
  });

  it('the budget with the least remaining binds, among the global limit and each of the person’s teams', async () => {
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 10_000_000 } });
    const a = await allowance(ana);
    expect(a).toMatchObject({
      source: 'team',
      teamId: mobile,
      teamName: 'Mobile',
      limit: 2_000_000,
      used: 1_800_000,
      remaining: 200_000,
      forecast: steady(1_800_000),
    });
    expect(a.budgets).toEqual([
      { scope: 'global', limit: 10_000_000, used: 1_200_000, remaining: 8_800_000, forecast: steady(1_200_000) },
      { scope: 'team', teamId: mobile, teamName: 'Mobile', limit: 2_000_000, used: 1_800_000, remaining: 200_000, forecast: steady(1_800_000) },
      { scope: 'team', teamId: platform, teamName: 'Platform', limit: 3_000_000, used: 2_400_000, remaining: 600_000, forecast: steady(2_400_000) },
    ]);
    expect(await allowance(ben)).toMatchObject({ source: 'team', teamName: 'Platform', remaining: 600_000 });
    // An individual limit tighter than every team's binds, as "individual".
    await t.request('PUT', '/api/v0/organization/usage/limits/users', { key: org.ownerKey, body: { users: [{ email: ben.email, limit: 1_500_000 }] } });
    const b = await allowance(ben);
    expect(b).toMatchObject({ source: 'individual', limit: 1_500_000, used: 1_200_000, remaining: 300_000, forecast: steady(1_200_000) });
    expect(b.teamId).toBeUndefined();
    expect(b.budgets.map((x) => x.scope)).toEqual(['user', 'team']);
    // No limit and no team: nothing binds, and used is the person's own.
    await use(dan, 120_000, 'd');
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: null } });
    expect(await allowance(dan)).toMatchObject({ source: 'none', limit: null, used: 120_000, remaining: null, budgets: [] });
  });

  it('a removed budget, a deleted team and a member who leaves stop counting at once', async () => {
    expect((await setBudget(mobile, null)).body).toEqual({ teamId: mobile, teamName: 'Mobile', limit: null });
    expect(await allowance(ana)).toMatchObject({ source: 'team', teamName: 'Platform', remaining: 600_000 });
    await setBudget(mobile, 2_000_000);
    expect((await t.request('DELETE', `${TEAMS}/${mobile}`, { key: org.ownerKey })).status).toBe(204);
    expect((await allowance(ana)).budgets.map((b) => b.teamName)).toEqual(['Platform']);
    // Ana leaves Platform: the team counts what its members now used this month, Ben's alone.
    await t.request('DELETE', `${TEAMS}/${platform}/members/${ana.id}`, { key: org.ownerKey });
    expect((await allowance(ana)).budgets).toEqual([]);
    expect((await allowance(ben)).budgets.find((b) => b.scope === 'team')).toMatchObject({
      used: 1_200_000,
      remaining: 1_800_000,
      forecast: steady(1_200_000),
    });
  });
});
