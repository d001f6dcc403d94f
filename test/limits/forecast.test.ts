import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { event, ingest, tokens } from '../analytics/fixture.js';
import { TestApp, type Org } from '../helpers/test-app.js';

/*
 * The month-end forecast of the allowance, worked out by hand. Today is 2026-11-10 (noon UTC):
 * the rate window is the 7 complete days 11-03..11-09, and 20 days of November follow today.
 * Credits ("unknown-model", multiplier 1, one credit an input token):
 *   ana:  100,000 on 11-01 (before the window), 50,000 on each of 11-03..11-09, 20,000 today
 *   ben:  140,001 on 11-05
 *   carl: 9,999 on 11-02 (before the window)
 *   dora: 1,000,000 on 11-04
 *   eve:  nothing
 * Global limit 1,000,000; team Core (ana, ben) has a budget of 2,000,000.
 */
const clock = new TestClock(Date.parse('2026-11-10T12:00:00Z'));
let t: TestApp;
let org: Org;
type User = { id: string; key: string };
const people: Record<string, User> = {};
type Forecast = { dailyRate: number | null; projectedUsed: number | null; limitReachedOn: string | null };
type Allowance = {
  source: string;
  used: number;
  remaining: number | null;
  forecast: Forecast;
  budgets: { scope: string; used: number; remaining: number; forecast: Forecast }[];
  organization: { used: number; forecast: Forecast } | null;
};

const use = (who: string, day: string, credits: number) =>
  event(people[who]!.id, 'model_request', `${day}T11:00:00Z`, 'terminal-ui', tokens('unknown-model', 'standard', credits, 0, 0, 0));

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('forecast');
  for (const name of ['ana', 'ben', 'carl', 'dora', 'eve']) people[name] = await t.addUser(org, 'member', `${name}@forecast.test`);
  await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 1_000_000 } });
  const team = await t.request<{ id: string }>('POST', '/api/v0/organization/teams', {
    key: org.ownerKey,
    body: { name: 'Core', userIds: [people.ana!.id, people.ben!.id] },
  });
  await t.request('PUT', `/api/v0/organization/usage/limits/teams/${team.body.id}`, { key: org.ownerKey, body: { limit: 2_000_000 } });
  const window = ['2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07', '2026-11-08', '2026-11-09'];
  await ingest(t, org, [
    use('ana', '2026-11-01', 100_000),
    ...window.map((d) => use('ana', d, 50_000)),
    use('ana', '2026-11-10', 20_000),
    use('ben', '2026-11-05', 140_001),
    use('carl', '2026-11-02', 9_999),
    use('dora', '2026-11-04', 1_000_000),
  ]);
});
afterAll(() => t?.close());

const allowance = async (who: User | Org) => {
  const res = await t.request<Allowance>('GET', '/api/v0/usage/allowance', { key: 'ownerKey' in who ? who.ownerKey : who.key });
  expect(res.status, res.raw).toBe(200);
  return res.body;
};

describe('the allowance forecast', () => {
  it('projects each budget from the mean of the last 7 complete days and gives the day its limit is reached', async () => {
    const a = await allowance(people.ana!);
    // Own: used 100,000 + 350,000 + 20,000 = 470,000; rate 350,000 / 7 = 50,000; 470,000 + 20 × 50,000.
    // The global limit's 530,000 left go in ceil(530,000 / 50,000) = 11 days: 11-21.
    const own = { dailyRate: 50_000, projectedUsed: 1_470_000, limitReachedOn: '2026-11-21' };
    // Core: ana and ben, used 610,001; rate round(490,001 / 7) = 70,000; 610,001 + 20 × 70,000 = 2,010,001;
    // 1,389,999 left: ceil(19.86) = 20 days, 11-30, the last day of the month.
    const core = { dailyRate: 70_000, projectedUsed: 2_010_001, limitReachedOn: '2026-11-30' };
    expect(a.budgets.map((b) => [b.scope, b.used, b.remaining, b.forecast])).toEqual([
      ['global', 470_000, 530_000, own],
      ['team', 610_001, 1_389_999, core],
    ]);
    expect(a).toMatchObject({ source: 'global', forecast: own, organization: null });
  });

  it('a limit already reached is reached today; without usage the rate is 0 and nothing is reached', async () => {
    // Dora: 1,000,000 on 11-04: rate round(1,000,000 / 7) = 142,857; 1,000,000 + 20 × 142,857.
    expect((await allowance(people.dora!)).forecast).toEqual({ dailyRate: 142_857, projectedUsed: 3_857_140, limitReachedOn: '2026-11-10' });
    expect((await allowance(people.eve!)).forecast).toEqual({ dailyRate: 0, projectedUsed: 0, limitReachedOn: null });
    // Carl used only before the window: his rate is 0 and the month ends where it stands.
    expect((await allowance(people.carl!)).forecast).toEqual({ dailyRate: 0, projectedUsed: 9_999, limitReachedOn: null });
  });

  it('owners and managers also get the organization: every principal together', async () => {
    // Used 470,000 + 140,001 + 9,999 + 1,000,000 = 1,620,000; in the window 350,000 + 140,001 + 1,000,000 = 1,490,001,
    // rate round(212,857.29) = 212,857; 1,620,000 + 20 × 212,857 = 5,877,140.
    expect((await allowance(org)).organization).toEqual({
      used: 1_620_000,
      forecast: { dailyRate: 212_857, projectedUsed: 5_877_140, limitReachedOn: null },
    });
    // Naming someone else (the hook's reading, on every prompt) leaves the organization out.
    const other = await t.request<Allowance>('GET', `/api/v0/usage/allowance?user_id=${people.ana!.id}`, { key: org.ownerKey });
    expect(other.body).toMatchObject({ organization: null, forecast: { dailyRate: 50_000 } });
  });

  it('the teams list shows each budget with its forecast', async () => {
    const list = await t.request<{ teams: { teamName: string; forecast: Forecast }[] }>('GET', '/api/v0/organization/usage/limits/teams', {
      key: people.ana!.key,
    });
    expect(list.body.teams.map((x) => [x.teamName, x.forecast.projectedUsed])).toEqual([['Core', 2_010_001]]);
  });

  it('in the first week the window is the complete days of the month so far; on the 1st there is no rate', async () => {
    // 12-01, half past midnight: a new month without a complete day.
    clock.advance(Date.parse('2026-12-01T00:30:00Z') - clock.now().getTime());
    const first = await allowance(people.ana!);
    expect(first).toMatchObject({ used: 0, remaining: 1_000_000, forecast: { dailyRate: null, projectedUsed: null, limitReachedOn: null } });
    clock.advance(Date.parse('2026-12-04T12:00:00Z') - clock.now().getTime());
    await ingest(t, org, [use('ana', '2026-12-01', 3_000), use('ana', '2026-12-03', 3_001)]);
    // 12-04 at noon: the complete days are 12-01..12-03; rate round(6,001 / 3) = 2,000; 27 days follow: 6,001 + 54,000.
    expect((await allowance(people.ana!)).forecast).toEqual({ dailyRate: 2_000, projectedUsed: 60_001, limitReachedOn: null });
  });
});
