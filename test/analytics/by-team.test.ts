import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { TestApp, expectErrorObject, type Org } from '../helpers/test-app.js';
import { event, ingest, query, tokens } from './fixture.js';

/*
 * Analytics by team, worked out by hand. Teams change while time passes (the service's clock);
 * the usage of those days is imported afterwards and read back by team.
 *
 * Membership (a person belongs on a day if a member at any moment of it):
 *   Platform: u1 10-01..10-02 (removed 10-02 12:00), u2 10-01..10-03 (team deleted 10-03 09:00)
 *   Mobile:   u2 10-01.., u3 10-01..10-02 (set out 10-02 12:00) and again 10-02 13:00..,
 *             u4 10-02..; renamed "Apps" 10-03 09:00
 * Credits per user-day ("unknown-model", multiplier 1; 5 cache-read tokens are half a credit):
 *   09-30: u1 10 (before any team)
 *   10-01: u1 100.5  u2 200.5  u3 300     u4 400
 *   10-02: u1 1000   u2 2000   u3 3000.5  u4 4000
 *   10-03: u1 10000  u2 20000  u3 30000   u4 40000.5
 *   10-04: u1 1      u2 2      u3 3       u4 4
 */
const clock = new TestClock(Date.parse('2026-10-01T08:00:00Z'));
const at = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
const TEAMS = '/api/v0/organization/teams';
const range = { startDate: '2026-09-30', endDate: '2026-10-04' };

let t: TestApp;
let org: Org;
let other: Org;
let otherTeam: string;
const u: Record<string, string> = {};
let platform: string;
let mobile: string;

const credits = (user: string, day: string, whole: number, half = false) =>
  event(user, 'model_request', `${day}T10:00:00Z`, 'terminal-ui', tokens('unknown-model', 'standard', whole, 0, half ? 5 : 0, 0));

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('by-team');
  other = await t.createOrg('by-team-other');
  for (const name of ['u1', 'u2', 'u3', 'u4']) u[name] = (await t.addUser(org, 'member', `${name}@team.test`)).id;
  const send = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, o: Org = org) => {
    const res = await t.request<{ id: string }>(method, path, { key: o.ownerKey, body });
    expect(res.status).toBeLessThan(300);
    return res.body;
  };
  platform = (await send('POST', TEAMS, { name: 'Platform', userIds: [u.u1, u.u2] })).id;
  mobile = (await send('POST', TEAMS, { name: 'Mobile', userIds: [u.u2, u.u3] })).id;
  otherTeam = (await send('POST', TEAMS, { name: 'Elsewhere' }, other)).id;
  at('2026-10-02T12:00:00Z');
  await send('DELETE', `${TEAMS}/${platform}/members/${u.u1}`);
  await send('PUT', `${TEAMS}/${mobile}/members`, { userIds: [u.u2, u.u4] });
  at('2026-10-02T13:00:00Z');
  await send('PUT', `${TEAMS}/${mobile}/members/${u.u3}`);
  at('2026-10-03T09:00:00Z');
  await send('PATCH', `${TEAMS}/${mobile}`, { name: 'Apps' });
  await send('DELETE', `${TEAMS}/${platform}`);
  at('2026-10-05T12:00:00Z');
  const { u1, u2, u3, u4 } = u as Record<'u1' | 'u2' | 'u3' | 'u4', string>;
  await ingest(t, org, [
    credits(u1, '2026-09-30', 10),
    credits(u1, '2026-10-01', 100, true),
    credits(u2, '2026-10-01', 200, true),
    credits(u3, '2026-10-01', 300),
    credits(u4, '2026-10-01', 400),
    credits(u1, '2026-10-02', 1000),
    credits(u2, '2026-10-02', 2000),
    credits(u3, '2026-10-02', 3000, true),
    credits(u4, '2026-10-02', 4000),
    credits(u1, '2026-10-03', 10000),
    credits(u2, '2026-10-03', 20000),
    credits(u3, '2026-10-03', 30000),
    credits(u4, '2026-10-03', 40000, true),
    credits(u1, '2026-10-04', 1),
    credits(u2, '2026-10-04', 2),
    credits(u3, '2026-10-04', 3),
    credits(u4, '2026-10-04', 4),
  ]);
});
afterAll(() => t?.close());

const get = async <T>(path: string, params: Record<string, string | number | undefined>) => {
  const res = await t.request<{ data: T[] }>('GET', query(path, { ...range, ...params }), { key: org.ownerKey });
  expect(res.status, res.raw).toBe(200);
  return res.body.data;
};
/** Rows of a grouped answer ordered as the API orders them: by date, then team id. */
const byKey = <T extends { date: string; group_key: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.group_key < b.group_key ? -1 : 1));

describe('analytics by team', () => {
  it('tokens group_by=team: a row per team and day, each person in every team they belonged to that day, under the name of the day', async () => {
    const row = (date: string, team: string, name: string, billable: number, input: number, cacheRead: number) => ({
      date,
      group_key: team,
      team_name: name,
      billable_tokens: billable,
      input_tokens: input,
      output_tokens: 0,
      cache_read_tokens: cacheRead,
      cache_write_tokens: 0,
    });
    const expected = byKey([
      // 10-01: Platform u1 + u2 = 100.5 + 200.5 = 301; Mobile u2 + u3 = 500.5, rounded half up.
      row('2026-10-01', platform, 'Platform', 301, 300, 10),
      row('2026-10-01', mobile, 'Mobile', 501, 500, 5),
      // 10-02: u1 was removed at noon and still counts; u3 went out and came back the same day: once.
      row('2026-10-02', platform, 'Platform', 3000, 3000, 0),
      row('2026-10-02', mobile, 'Mobile', 9001, 9000, 5),
      // 10-03: Platform was deleted that morning, u2 counts in it under its name; Mobile is "Apps".
      row('2026-10-03', platform, 'Platform', 20000, 20000, 0),
      row('2026-10-03', mobile, 'Apps', 90001, 90000, 5),
      row('2026-10-04', mobile, 'Apps', 9, 9, 0),
    ]);
    expect(await get('tokens', { group_by: 'team' })).toEqual(expected);
    // Read again (kept rows) and for one team only.
    expect(await get('tokens', { group_by: 'team' })).toEqual(expected);
    expect(await get('tokens', { group_by: 'team', team_id: mobile })).toEqual(expected.filter((r) => r.group_key === mobile));
    // Team rows add up to more than the organization: u2 counts in both teams on 10-03 (100000.5 credits in all).
    const all = await get<{ date: string; billable_tokens: number }>('tokens', {});
    expect(all.find((r) => r.date === '2026-10-03')?.billable_tokens).toBe(100001);
  });

  it('tokens team_id: the day rows of the members of the days they belonged, also of a deleted team', async () => {
    type Row = { date: string; billable_tokens: number; by_user: { user_id: string; billable_tokens: number }[] };
    const rows = await get<Row>('tokens', { team_id: mobile });
    expect(rows.map((r) => [r.date, r.billable_tokens, r.by_user.map((x) => [x.user_id, x.billable_tokens])])).toEqual([
      ['2026-09-30', 0, []],
      [
        '2026-10-01',
        501,
        [
          [u.u3, 300],
          [u.u2, 201],
        ],
      ],
      [
        '2026-10-02',
        9001,
        [
          [u.u4, 4000],
          [u.u3, 3001],
          [u.u2, 2000],
        ],
      ],
      [
        '2026-10-03',
        90001,
        [
          [u.u4, 40001],
          [u.u3, 30000],
          [u.u2, 20000],
        ],
      ],
      [
        '2026-10-04',
        9,
        [
          [u.u4, 4],
          [u.u3, 3],
          [u.u2, 2],
        ],
      ],
    ]);
    const models = await get<{ date: string; group_key: string; billable_tokens: number }>('tokens', { team_id: platform, group_by: 'model' });
    expect(models.map((r) => [r.date, r.group_key, r.billable_tokens])).toEqual([
      ['2026-10-01', 'unknown-model', 301],
      ['2026-10-02', 'unknown-model', 3000],
      ['2026-10-03', 'unknown-model', 20000],
    ]);
  });

  it('activity team_id and group_by=team: active members per day, and the 7-day window counts only days in the team', async () => {
    type Row = { date: string; daily_active_users: number; weekly_active_users: number };
    const platformRows = await get<Row>('activity', { team_id: platform });
    // u1 was active on 09-30 but not yet in Platform: not counted that day nor in the windows.
    expect(platformRows.map((r) => [r.date, r.daily_active_users, r.weekly_active_users])).toEqual([
      ['2026-09-30', 0, 0],
      ['2026-10-01', 2, 2],
      ['2026-10-02', 2, 2],
      ['2026-10-03', 1, 2],
      ['2026-10-04', 0, 2],
    ]);
    const teams = await get<{ date: string; group_key: string; team_name: string; daily_active_users: number }>('activity', { group_by: 'team' });
    expect(teams).toEqual(
      byKey([
        { date: '2026-10-01', group_key: platform, team_name: 'Platform', daily_active_users: 2 },
        { date: '2026-10-01', group_key: mobile, team_name: 'Mobile', daily_active_users: 2 },
        { date: '2026-10-02', group_key: platform, team_name: 'Platform', daily_active_users: 2 },
        { date: '2026-10-02', group_key: mobile, team_name: 'Mobile', daily_active_users: 3 },
        { date: '2026-10-03', group_key: platform, team_name: 'Platform', daily_active_users: 1 },
        { date: '2026-10-03', group_key: mobile, team_name: 'Apps', daily_active_users: 3 },
        { date: '2026-10-04', group_key: mobile, team_name: 'Apps', daily_active_users: 3 },
      ]),
    );
    const clients = await get<{ date: string; group_key: string; daily_active_users: number }>('activity', { team_id: platform, group_by: 'client' });
    expect(clients.map((r) => [r.date, r.group_key, r.daily_active_users])).toEqual([
      ['2026-10-01', 'terminal-ui', 2],
      ['2026-10-02', 'terminal-ui', 2],
      ['2026-10-03', 'terminal-ui', 1],
    ]);
  });

  it('users team_id: only the days each person belonged; totals list the members of the range with their sums of those days', async () => {
    const rows = await get<{ user_id: string; date: string; billable_tokens: number }>('users', { team_id: platform });
    const [first, second] = [u.u1!, u.u2!].sort();
    const days: Record<string, [string, number][]> = {
      [u.u1!]: [
        ['2026-10-01', 101],
        ['2026-10-02', 1000],
      ],
      [u.u2!]: [
        ['2026-10-01', 201],
        ['2026-10-02', 2000],
        ['2026-10-03', 20000],
      ],
    };
    expect(rows.map((r) => [r.user_id, r.date, r.billable_tokens])).toEqual([
      ...days[first!]!.map(([d, n]) => [first, d, n]),
      ...days[second!]!.map(([d, n]) => [second, d, n]),
    ]);
    const totals = await get<{ user_id: string; active_days: number; billable_tokens: number }>('users/totals', { team_id: mobile });
    // u2 200.5 + 2000 + 20000 + 2; u3 300 + 3000.5 + 30000 + 3; u4 (from 10-02) 4000 + 40000.5 + 4; u1 never.
    const expected = new Map([
      [u.u2, [4, 22203]],
      [u.u3, [4, 33304]],
      [u.u4, [3, 44005]],
    ]);
    expect(totals.map((r) => r.user_id)).toEqual([u.u2!, u.u3!, u.u4!].sort());
    for (const r of totals) expect([r.active_days, r.billable_tokens]).toEqual(expected.get(r.user_id));
  });

  it('a team id that is no team of the organization is 404, a malformed one and an unknown group 400', async () => {
    for (const id of [otherTeam, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request('GET', query('tokens', { ...range, team_id: id }), { key: org.ownerKey });
      expect(expectErrorObject(res, 404).metadata).toMatchObject({ code: 'team_not_found' });
    }
    for (const params of [{ team_id: 'nope' }, { group_by: 'Team' }]) {
      const res = await t.request('GET', query('activity', { ...range, ...params }), { key: org.ownerKey });
      expect(res.status).toBe(400);
    }
  });
});
