import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { flatten } from '../../src/client/csv-rows.js';
import { TestClock } from '../../src/core/clock.js';
import { openDb } from '../../src/core/db/open-db.js';
import type { Principal } from '../../src/core/identity/roles.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { TeamsService } from '../../src/teams/service.js';
import { runCli } from '../helpers/cli.js';
import { axeViolations, downloaded, hasChromium } from './browser.js';
import { apiCall, signedInOwner, type SignedIn } from './signed-in-server.js';

const MIA = 'mia@teams.test';
const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
type Row = Record<string, unknown>;

/*
 * The analytics pages narrowed to a team, in Chromium against a real `orgctl serve`. Team history
 * is made through the teams service with the clock set days back (the API makes it from today
 * on), before the server starts:
 *   Platform: Mia from 10 days ago until 3 days ago;  Mobile: the owner from 10 days ago.
 * Usage, sent over the API: Mia 1,000 credits 5 days ago (in Platform) and 500 two days ago (no
 * longer), the owner 300 five days ago (in Mobile).
 */
describe.skipIf(!hasChromium)('analytics by team in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let s: SignedIn;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await signedInOwner(async (env, who) => {
      expect((await runCli(['users', 'add', '--email', MIA, '--role', 'member', '--json'], env)).code).toBe(0);
      const db = await openDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR ?? '', databasePoolSize: 2 } as Parameters<typeof openDb>[0]);
      try {
        const people = await db.query<{ id: string; org_id: string; email: string }>(`SELECT id, org_id, email FROM principals WHERE email = ANY($1)`, [
          [who.email, MIA],
        ]);
        const owner = people.find((p) => p.email === who.email)!;
        ids.mia = people.find((p) => p.email === MIA)!.id;
        ids.owner = owner.id;
        const clock = new TestClock(Date.parse(`${day(-10)}T09:00:00Z`));
        const teams = new TeamsService({ db, identity: new IdentityService({ db }), clock });
        const actor = { id: owner.id, orgId: owner.org_id, role: 'owner' } as Principal;
        ids.platform = (await teams.create(actor, { name: 'Platform', userIds: [ids.mia] })).id;
        ids.mobile = (await teams.create(actor, { name: 'Mobile', userIds: [owner.id] })).id;
        clock.advance(7 * DAY);
        await teams.removeMember(actor, ids.platform, ids.mia);
      } finally {
        await db.close();
      }
    });
    const use = (user: string, n: number, credits: number, id: string) => ({
      id,
      type: 'model_request',
      timestamp: `${day(n)}T10:00:00Z`,
      sessionId: 's',
      client: 'terminal-ui',
      userId: user,
      model: 'unknown-model',
      tier: 'standard',
      inputTokens: credits,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const sent = await apiCall(s, 'POST', '/api/v1/telemetry/events', {
      events: [use(ids.mia!, -5, 1000, 'm1'), use(ids.mia!, -2, 500, 'm2'), use(ids.owner!, -5, 300, 'o1')],
    });
    expect(sent.status).toBe(202);
  }, 180_000);

  const range = () => ({ startDate: day(-7), endDate: day(-1) });
  const api = async (path: string, q: Record<string, string>) =>
    (await apiCall<{ data: Row[] }>(s, 'GET', `${path}?${new URLSearchParams({ ...range(), ...q })}`)).body.data;
  async function download(name: string | RegExp): Promise<string> {
    const [file] = await Promise.all([s.page.waitForEvent('download'), s.page.getByRole('button', { name }).click()]);
    return await downloaded(file);
  }
  /** The CSV equals the API's rows flattened as the CLI flattens them. */
  function expectCsvRows(csv: string, rows: Row[]) {
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(rows.length);
    rows.forEach((row, i) => expect(records[i]).toEqual(Object.fromEntries(Object.entries(flatten(row)).map(([k, v]) => [k, v === null ? '' : String(v)]))));
  }

  it('the team selector narrows the credits page, stays in the URL across a reload, and its CSVs hold the team rows', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/analytics/credits?days=7`);
    await page
      .getByTestId('total-credits')
      .filter({ hasText: /^1\D?800$/ })
      .waitFor();
    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Platform' });
    await page.waitForURL((u) => u.searchParams.get('team') === ids.platform);
    // Mia's 1,000 of five days ago only: two days ago she had left Platform.
    await page
      .getByTestId('total-credits')
      .filter({ hasText: /^1\D?000$/ })
      .waitFor();
    await page.reload();
    await page
      .getByTestId('total-credits')
      .filter({ hasText: /^1\D?000$/ })
      .waitFor();
    // The selector shows the team once the teams are read.
    await expect.poll(() => page.getByLabel('Team', { exact: true }).inputValue()).toBe(ids.platform);
    expect(await axeViolations(page)).toEqual([]);

    const byModel = await api('/api/v1/analytics/tokens', { team_id: ids.platform!, group_by: 'model' });
    expect(byModel.map((r) => [r.date, r.group_key, r.billable_tokens])).toEqual([[day(-5), 'unknown-model', 1000]]);
    expectCsvRows(await download('Download CSV (per day and model)'), byModel);
    const byTeam = await api('/api/v1/analytics/tokens', { team_id: ids.platform!, group_by: 'team' });
    expect(byTeam.map((r) => [r.date, r.team_name, r.billable_tokens])).toEqual([[day(-5), 'Platform', 1000]]);
    expectCsvRows(await download('Download CSV (per day and team)'), byTeam);

    // Every team: each with its members' credits of the days they belonged.
    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'All teams (the organization)' });
    await page.waitForURL((u) => !u.searchParams.has('team'));
    const teams = page.getByRole('region', { name: 'Teams' });
    await teams.getByRole('row').filter({ hasText: 'Mobile' }).filter({ hasText: '300' }).waitFor();
    await teams
      .getByRole('row')
      .filter({ hasText: 'Platform' })
      .filter({ hasText: /1\D?000/ })
      .waitFor();
  });

  it('the users page lists the team’s members with the sums of their days in it; tools are not by team and say so', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/analytics/users?days=7&team=${ids.platform}`);
    const table = page.getByTestId('users-table');
    await table
      .getByRole('row')
      .filter({ hasText: MIA })
      .filter({ hasText: /1\D?000/ })
      .waitFor();
    expect(await table.getByRole('row').filter({ hasText: s.owner.email }).count()).toBe(0);
    const totals = await api('/api/v1/analytics/users/totals', { team_id: ids.platform! });
    expect(totals.map((r) => [r.user_email, r.billable_tokens])).toEqual([[MIA, 1000]]);
    expectCsvRows(await download('Download CSV (per user)'), totals);

    await page.getByRole('navigation', { name: 'Analytics' }).getByRole('link', { name: 'Tools' }).click();
    await page.waitForURL(/\/analytics\/tools/);
    expect(new URL(page.url()).searchParams.get('team')).toBe(ids.platform);
    await page.getByTestId('not-by-team').waitFor();
    expect(await page.getByLabel('Team', { exact: true }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the overview and the usage limits page show where the month is heading, as the allowance says', async () => {
    const { page } = s;
    type Forecast = { dailyRate: number | null; projectedUsed: number | null; limitReachedOn: string | null };
    const allowance = (await apiCall<{ forecast: Forecast; organization: { used: number; forecast: Forecast } }>(s, 'GET', '/api/v0/usage/allowance')).body;
    const shown = (n: number | null) => new RegExp(String(n).replace(/\B(?=(\d{3})+$)/g, '\\D?'));
    await page.goto(`${s.server.url}/`);
    const own = page.getByTestId('allowance-forecast');
    await own.waitFor();
    if (allowance.forecast.projectedUsed === null) await own.filter({ hasText: 'No forecast yet' }).waitFor();
    else await own.filter({ hasText: shown(allowance.forecast.projectedUsed) }).waitFor();
    const orgOnOverview = page.getByTestId('org-forecast');
    if (allowance.organization.forecast.projectedUsed === null) await orgOnOverview.filter({ hasText: 'No forecast yet' }).waitFor();
    else await orgOnOverview.filter({ hasText: shown(allowance.organization.forecast.projectedUsed) }).waitFor();
    await page.goto(`${s.server.url}/settings/usage-limits`);
    const org = page.getByTestId('organization-forecast');
    await org.filter({ hasText: shown(allowance.organization.used) }).waitFor();
    if (allowance.organization.forecast.projectedUsed !== null) await org.filter({ hasText: shown(allowance.organization.forecast.projectedUsed) }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
