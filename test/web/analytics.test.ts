import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { flatten } from '../../src/client/csv-rows.js';
import { runCli } from '../helpers/cli.js';
import { axeViolations, CHROMIUM, downloaded, hasChromium } from './browser.js';
import { signedInOwner, type SignedIn } from './signed-in-server.js';

const MEMBER = { email: 'idle.member@acme.test', password: 'member password 123', name: 'Idle Member' };
const DAY = 86_400_000;
const utcDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const lastDays = (n: number) => ({ startDate: utcDay(-n), endDate: utcDay(-1) });
const digits = (s: string | null) => Number((s ?? '').replace(/[^\d.-]/g, ''));

type Row = Record<string, unknown>;

/** The web app's analytics pages in Chromium, on demo data, against a real `orgctl serve`. */
describe.skipIf(!hasChromium)('analytics pages in Chromium against orgctl serve', { timeout: 240_000 }, () => {
  let server: SignedIn['server'];
  let browser: Browser;
  let page: Page;
  let ownerKey: string;
  let inviteUrl: string;
  let cspViolations: string[];

  const api = async <T = { data: Row[] }>(pathname: string, q: Record<string, string>): Promise<T> => {
    const res = await fetch(`${server.url}${pathname}?${new URLSearchParams(q)}`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(res.status, pathname).toBe(200);
    return (await res.json()) as T;
  };
  const cli = (args: string[]) =>
    runCli(args, { ORGCTL_URL: server.url, ORGCTL_API_KEY: ownerKey, XDG_CONFIG_HOME: path.join(tmpdir(), 'orgctl-analytics-none') });

  /** Clicks a CSV button and returns the downloaded file's text. */
  async function download(name: string | RegExp): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
    return await downloaded(file);
  }
  /**
   * The downloaded CSV, parsed, equals the API's rows flattened as the CLI flattens them, a text
   * cell that a spreadsheet would take for a formula led by a quote (OWASP; an extension with no
   * name makes `by_extension` start with `=`).
   */
  function expectCsvRows(csv: string, rows: Row[]) {
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(rows.length);
    const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v));
    rows.forEach((row, i) => {
      const flat = flatten(row);
      expect(records[i], `row ${i}`).toEqual(Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, cell(v)])));
    });
  }
  /** The chart's tooltip (uPlot's live legend) with the pointer on `date`: each series' value there, by its label. */
  async function tooltipOn(testId: string, range: { startDate: string; endDate: string }, date: string): Promise<Map<string, number>> {
    const days: string[] = [];
    for (let t = Date.parse(`${range.startDate}T00:00:00Z`); t <= Date.parse(`${range.endDate}T00:00:00Z`); t += 86_400_000)
      days.push(new Date(t).toISOString().slice(0, 10));
    const plot = page.getByTestId(`${testId}-plot`);
    const over = (await plot.locator('.u-over').boundingBox())!;
    await page.mouse.move(over.x + (over.width * days.indexOf(date)) / (days.length - 1), over.y + over.height / 2);
    const rows = plot.locator('.u-legend tr.u-series');
    await rows.first().locator('.u-value').filter({ hasText: date }).waitFor();
    const values = new Map<string, number>();
    for (const row of (await rows.all()).slice(1))
      values.set((await row.locator('.u-label').textContent())!, digits(await row.locator('.u-value').textContent()));
    return values;
  }

  async function openTable(title: string) {
    await page.getByText(`Data table: ${title}`, { exact: true }).click();
    // The table is drawn when the details open (a render later): reads must not run before it.
    const table = page.getByRole('table', { name: `${title} (UTC days)` });
    await table.locator('tbody tr').first().waitFor();
    return table;
  }

  beforeAll(async () => {
    const s = await signedInOwner(async (env) => {
      const seed = await runCli(['demo', 'seed', '--users', '8', '--days', '45', '--seed', '3'], env);
      expect(seed.code, seed.stderr).toBe(0);
      const invite = await runCli(['users', 'invite', '--email', MEMBER.email, '--role', 'member', '--json'], env);
      expect(invite.code, invite.stderr).toBe(0);
      inviteUrl = (JSON.parse(invite.stdout) as { url: string }).url;
    });
    ({ server, browser, page, cspViolations } = s);
    ownerKey = s.key;
  }, 200_000);

  it("credits: the total, a day of the stacked chart and a model row equal the API; the CSV is the CLI's CSV of the same rows", async () => {
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Credits and tokens' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/analytics/credits');
    const range = lastDays(30);
    const body = await api<{ data: { date: string; group_key: string; billable_tokens: number; input_tokens: number }[] }>('/api/v1/analytics/tokens', {
      ...range,
      group_by: 'model',
    });
    expect(body.data.length).toBeGreaterThan(0);
    await page.getByTestId('total-credits').filter({ hasText: /\d/ }).waitFor();
    expect(digits(await page.getByTestId('total-credits').textContent())).toBe(body.data.reduce((s, r) => s + r.billable_tokens, 0));
    // A day and a model of the chart's data table.
    const sample = body.data[Math.floor(body.data.length / 2)]!;
    const table = await openTable('Credits per day by model');
    const header = await table.locator('thead th').allTextContents();
    const row = table.locator('tbody tr', { has: page.getByRole('rowheader', { name: sample.date, exact: true }) });
    const cells = await row.locator('td').allTextContents();
    expect(digits(cells[header.indexOf(sample.group_key) - 1]!)).toBe(sample.billable_tokens);
    // The chart's tooltip on that day shows the same figure.
    expect((await tooltipOn('credits-chart', range, sample.date)).get(sample.group_key)).toBe(sample.billable_tokens);
    // The model's row of the tokens table.
    const inputs = body.data.filter((r) => r.group_key === sample.group_key).reduce((s, r) => s + r.input_tokens, 0);
    const modelRow = page.getByTestId('model-tokens').locator('tbody tr', { has: page.getByRole('rowheader', { name: sample.group_key, exact: true }) });
    expect(digits((await modelRow.locator('td').allTextContents())[1]!)).toBe(inputs);
    const csv = await download('Download CSV (per day and model)');
    expectCsvRows(csv, body.data);
    const fromCli = await cli(['analytics', 'tokens', '--group-by', 'model', '--from', range.startDate, '--to', range.endDate, '--output', 'csv']);
    expect(fromCli.code, fromCli.stderr).toBe(0);
    expect(csv).toBe(fromCli.stdout);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a metric's definition shows on focus, in the words of docs/analytics.md", async () => {
    const term = page.getByRole('button', { name: 'Credits', exact: true }).first();
    await term.focus();
    const tip = page.getByRole('tooltip', { name: /Standard Credits of the day's model requests, rounded/ });
    await tip.waitFor();
    expect(await tip.isVisible()).toBe(true);
  });

  it('presets and a custom range change the URL and the data', async () => {
    await page.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(/days=7/);
    const week = await api<{ data: { billable_tokens: number }[] }>('/api/v1/analytics/tokens', { ...lastDays(7), group_by: 'model' });
    await expect.poll(async () => digits(await page.getByTestId('total-credits').textContent())).toBe(week.data.reduce((s, r) => s + r.billable_tokens, 0));
    expect(await page.getByTestId('range-label').textContent()).toContain(`${utcDay(-7)} to ${utcDay(-1)}`);
    const custom = { startDate: utcDay(-20), endDate: utcDay(-12) };
    await page.getByLabel('From', { exact: true }).fill(custom.startDate);
    await page.getByLabel('To', { exact: true }).fill(custom.endDate);
    await page.getByRole('button', { name: 'Show range' }).click();
    await page.waitForURL(new RegExp(`from=${custom.startDate}&to=${custom.endDate}`));
    const body = await api<{ data: { billable_tokens: number }[] }>('/api/v1/analytics/tokens', { ...custom, group_by: 'model' });
    await expect.poll(async () => digits(await page.getByTestId('total-credits').textContent())).toBe(body.data.reduce((s, r) => s + r.billable_tokens, 0));
    // A range longer than 366 days is refused before asking.
    await page.getByLabel('From', { exact: true }).fill(utcDay(-400));
    await page.getByLabel('To', { exact: true }).fill(utcDay(-1));
    await page.getByRole('button', { name: 'Show range' }).click();
    await page.getByRole('alert').filter({ hasText: 'at most 366 days' }).waitFor();
    await page.getByRole('link', { name: 'Last 30 days' }).click();
    await page.waitForURL(/days=30/);
  });

  it("tools: total tool calls and a tool's row equal the API; the CSV holds the API's rows", async () => {
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    const body = await api<{ data: { date: string; tool_calls: number; by_tool: { tool: string; invocations: number }[] }[] }>(
      '/api/v1/analytics/tools',
      lastDays(30),
    );
    await page.getByTestId('total-tool-calls').waitFor();
    expect(digits(await page.getByTestId('total-tool-calls').textContent())).toBe(body.data.reduce((s, r) => s + r.tool_calls, 0));
    const tool = body.data.flatMap((r) => r.by_tool)[0]!.tool;
    const calls = body.data.reduce((s, r) => s + (r.by_tool.find((t) => t.tool === tool)?.invocations ?? 0), 0);
    const row = page.getByRole('table', { name: 'Tool calls by tool' }).locator('tbody tr', { has: page.getByRole('rowheader', { name: tool, exact: true }) });
    expect(digits(await row.locator('td').first().textContent())).toBe(calls);
    // The most used tool is drawn in the chart: its calls on a day in the tooltip.
    const totals = new Map<string, number>();
    for (const t of body.data.flatMap((r) => r.by_tool)) totals.set(t.tool, (totals.get(t.tool) ?? 0) + t.invocations);
    const top = [...totals].sort((a, b) => b[1] - a[1])[0]![0];
    const day = body.data.find((r) => r.by_tool.some((t) => t.tool === top))!;
    expect((await tooltipOn('tools-chart', lastDays(30), day.date)).get(top)).toBe(day.by_tool.find((t) => t.tool === top)!.invocations);
    const csv = await download('Download CSV (per day)');
    expectCsvRows(csv, body.data);
    const fromCli = await cli(['analytics', 'tools', '--from', lastDays(30).startDate, '--to', lastDays(30).endDate, '--output', 'csv']);
    expect(csv).toBe(fromCli.stdout);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("activity: a day's DAU, WAU and MAU in the chart's table equal the API; the CSV holds the API's rows", async () => {
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const body = await api<{
      data: { date: string; daily_active_users: number; weekly_active_users: number; monthly_active_users: number; sessions: number }[];
    }>('/api/v1/analytics/activity', lastDays(30));
    await page.getByTestId('total-sessions').waitFor();
    expect(digits(await page.getByTestId('total-sessions').textContent())).toBe(body.data.reduce((s, r) => s + r.sessions, 0));
    const day = body.data[body.data.length - 3]!;
    const table = await openTable('Daily, weekly and monthly active users');
    const cells = await table
      .locator('tbody tr', { has: page.getByRole('rowheader', { name: day.date, exact: true }) })
      .locator('td')
      .allTextContents();
    expect(cells.map(digits)).toEqual([day.daily_active_users, day.weekly_active_users, day.monthly_active_users]);
    const tip = await tooltipOn('activity-chart', lastDays(30), day.date);
    expect([tip.get('Daily active users'), tip.get('Weekly active users'), tip.get('Monthly active users')]).toEqual([
      day.daily_active_users,
      day.weekly_active_users,
      day.monthly_active_users,
    ]);
    expectCsvRows(await download('Download CSV (per day)'), body.data);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("productivity: commits and a language row equal the API; the CSV holds the API's rows", async () => {
    await page.getByRole('link', { name: 'Productivity', exact: true }).click();
    await page.getByRole('heading', { name: 'Productivity', level: 1 }).waitFor();
    const body = await api<{ data: { date: string; git_commits: number; files_edited: number; by_language: { language: string; count: number }[] }[] }>(
      '/api/v1/analytics/productivity',
      lastDays(30),
    );
    await page.getByTestId('total-commits').waitFor();
    expect(digits(await page.getByTestId('total-commits').textContent())).toBe(body.data.reduce((s, r) => s + r.git_commits, 0));
    const language = body.data.flatMap((r) => r.by_language)[0]!.language;
    const files = body.data.reduce((s, r) => s + (r.by_language.find((l) => l.language === language)?.count ?? 0), 0);
    const row = page
      .getByRole('table', { name: 'Files by language' })
      .locator('tbody tr', { has: page.getByRole('rowheader', { name: language, exact: true }) });
    expect(digits(await row.locator('td').first().textContent())).toBe(files);
    const day = body.data.find((r) => r.git_commits > 0) ?? body.data[0]!;
    const tip = await tooltipOn('productivity-chart', lastDays(30), day.date);
    expect([tip.get('Commits'), tip.get('Files edited')]).toEqual([day.git_commits, day.files_edited]);
    expectCsvRows(await download('Download CSV (per day)'), body.data);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a member sees no analytics navigation, and opened directly the pages show the API's 403", async () => {
    const context = await browser.newContext();
    try {
      const member = await context.newPage();
      await member.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, server.url));
      await member.getByLabel('Your name (optional)').fill(MEMBER.name);
      await member.getByLabel('Password (at least 10 characters)').fill(MEMBER.password);
      await member.getByLabel('Repeat it').fill(MEMBER.password);
      await member.getByRole('button', { name: 'Accept invitation' }).click();
      await member.getByRole('heading', { name: 'Overview' }).waitFor();
      expect(await member.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
      for (const area of ['credits', 'users']) {
        await member.goto(`${server.url}/analytics/${area}`);
        await member.getByRole('alert').filter({ hasText: 'needs one of the roles: owner, manager' }).first().waitFor();
      }
      expect(await axeViolations(member)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("users: every member with totals, the idle one too; search and sort; the CSV holds the API's rows; a user's page has their days", async () => {
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    // The credits page read the totals before the member joined; a reload asks again.
    await page.reload();
    const body = await api<{ data: { user_id: string; user_email: string; billable_tokens: number; active_days: number }[] }>(
      '/api/v1/analytics/users/totals',
      lastDays(30),
    );
    expect(body.data).toHaveLength(10); // the owner, 8 demo users and the invited member
    const table = page.getByTestId('users-table');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(10);
    const idle = table.locator('tbody tr', { has: page.getByRole('rowheader', { name: MEMBER.email }) });
    expect(await idle.locator('td').allTextContents()).toEqual(['member', '0', '—', '0', '0', '0', '0', '0']);
    // Sorted by credits, largest first: the first row is the API's largest.
    const top = [...body.data].sort((a, b) => b.billable_tokens - a.billable_tokens)[0]!;
    expect(await table.locator('tbody tr').first().getByRole('rowheader').textContent()).toBe(top.user_email);
    expect(digits((await table.locator('tbody tr').first().locator('td').allTextContents())[3]!)).toBe(top.billable_tokens);
    await page.getByRole('button', { name: 'Credits', exact: true }).click();
    await page.waitForURL(/asc=true/);
    await page.getByLabel('Search users').fill('demo-user-002');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('q=demo-user-002');
    await page.getByLabel('Search users').fill('');
    expectCsvRows(await download('Download CSV (per user)'), body.data);
    expect(await axeViolations(page)).toEqual([]);

    await table.getByRole('link', { name: top.user_email }).click();
    await page.getByRole('heading', { name: `User ${top.user_email}` }).waitFor();
    const rows = await api<{ data: { date: string; billable_tokens: number }[] }>('/api/v1/analytics/users', { ...lastDays(30), user_id: top.user_id });
    await page.getByTestId('user-days').waitFor();
    expect(await page.getByTestId('user-days').locator('tbody tr').count()).toBe(rows.data.length);
    const sample = rows.data[0]!;
    const cells = await page
      .getByTestId('user-days')
      .locator('tbody tr', { has: page.getByRole('rowheader', { name: sample.date, exact: true }) })
      .locator('td')
      .allTextContents();
    expect(digits(cells[0]!)).toBe(sample.billable_tokens);
    expect(digits(await page.getByTestId('user-credits').textContent())).toBe(top.billable_tokens);
    const allowance = await api<{ used: number }>('/api/v0/usage/allowance', { user_id: top.user_id });
    await page.getByTestId('user-allowance').waitFor();
    expect(await page.getByTestId('user-allowance').textContent()).toContain(allowance.used.toLocaleString('en-US'));
    expectCsvRows(await download('Download CSV (per active day)'), rows.data);
    expect(await axeViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
