/**
 * bench:web-analytics — how fast the analytics pages are in a real browser. A real `orgctl serve`
 * on a demo organization (default 200 users over 366 days, or the days since 2026-01-14 when fewer), Debian's Chromium (headless), and for
 * each round a fresh browser context (cold browser cache, a new session):
 *
 *   - baseline: the Overview page (`/`), from navigation to its organization card drawn;
 *   - credits: `/analytics/credits?days=365`, from navigation to the total and the stacked chart drawn;
 *   - switch: on that page, a click on "Last 30 days" to the 30-day total and chart drawn.
 *
 * The first round after the service starts is printed apart (the service builds its kept rows
 * then, see docs/analytics.md); the others give the median. Targets: credits ≤ 1500 ms, switch ≤ 300 ms.
 *
 *   npm run bench:web-analytics [-- --users 200 --days 366 --rounds 7 --data DIR]
 *   DATABASE_URL=postgres://… npm run bench:web-analytics   PostgreSQL (an empty database)
 *
 * `--data DIR` keeps the PGlite data directory (seeding a year for 200 users takes minutes) and
 * reuses it when it exists.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Cookie, type Page } from 'playwright-core';

// Telemetry starts on 2026-01-14: a demo organization has at most the days from then to yesterday.
const DAYS_OF_DATA = Math.floor((Date.now() - Date.parse('2026-01-14T00:00:00Z')) / 86_400_000);
const { values } = parseArgs({ options: { users: { type: 'string', default: '200' }, days: { type: 'string', default: String(Math.min(366, DAYS_OF_DATA)) }, rounds: { type: 'string', default: '7' }, data: { type: 'string' } } });
const ROUNDS = Number(values.rounds);
const MAIN = path.resolve('dist/main.js');
const SETUP_TOKEN = 'bench-web-analytics-setup-token';
const PASSWORD = 'bench password 123';
const OWNER = 'owner@bench.test';
// Sign-ins are limited per account (docs/web-app.md): each run signs in once, as a new manager invited for it.
const MANAGER = `manager-${Date.now()}@bench.test`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const utcDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

function cli(args: string[], env: NodeJS.ProcessEnv) {
  const res = spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`orgctl ${args.join(' ')} failed: ${res.stderr.slice(0, 500)}`);
  return res.stdout;
}

async function startService(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [MAIN, 'serve'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMITS: 'false', ORGCTL_SETUP_TOKEN: SETUP_TOKEN, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 600 && !/listening on (\S+)/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /listening on (\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`the service did not start:\n${out}`);
  return { child, url };
}

/** A fresh context: an empty cache, with the cookies of the one session the run signed in with. */
async function freshPage(browser: Browser, cookies: Cookie[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState: { cookies, origins: [] } });
  return context.newPage();
}

/** Milliseconds from `action` to the moment `ready` resolves (locators: the page's CSP allows no evaluated strings). */
async function timed(action: () => Promise<unknown>, ready: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await action();
  await ready();
  return performance.now() - t0;
}

/** The credits page of the range starting on `startDate`, drawn: its range, its total and the chart's canvas. */
const creditsReady = (page: Page, startDate: string) => async () => {
  await page.getByTestId('range-label').filter({ hasText: startDate }).waitFor({ timeout: 60_000 });
  await page.getByTestId('total-credits').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=credits-chart-plot] canvas').waitFor({ timeout: 60_000 });
};
const overviewReady = (page: Page) => () => page.getByRole('heading', { name: 'Organization this month' }).waitFor({ timeout: 60_000 });

async function main() {
  const env: NodeJS.ProcessEnv = {};
  let remove = () => undefined as void;
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  else {
    const dir = values.data ?? mkdtempSync(path.join(tmpdir(), 'orgctl-bench-web-'));
    if (!values.data) remove = () => rmSync(dir, { recursive: true, force: true });
    env.DATA_DIR = dir;
    env.DATABASE_URL = '';
  }
  const fresh = !(values.data && existsSync(values.data)) || process.env.DATABASE_URL !== undefined;
  if (fresh) {
    cli(['init', '--org', 'bench', '--owner-email', OWNER], env);
    const t0 = performance.now();
    cli(['demo', 'seed', '--users', values.users!, '--days', values.days!], env);
    console.log(`seeded ${values.users} users over ${values.days} days in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const invite = JSON.parse(cli(['users', 'invite', '--email', MANAGER, '--role', 'manager', '--json'], env)) as { url: string };
  const service = await startService(env);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const first = await browser.newContext();
    const accepted = await first.request.post(`${service.url}/api/v0/invitations/accept`, {
      data: { token: invite.url.split('/invite/')[1], password: PASSWORD, name: 'Bench manager' },
      headers: { origin: service.url, 'sec-fetch-site': 'same-origin' },
    });
    if (!accepted.ok()) throw new Error(`accepting the invitation answered ${accepted.status()}: ${await accepted.text()}`);
    const { cookies } = await first.storageState();
    await first.close();
    const rounds: { overview: number; credits: number; switch: number }[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      const page = await freshPage(browser, cookies);
      // The service's first answers build what it keeps; the credits page goes first in the first round so that it is measured cold.
      const credits = await timed(() => page.goto(`${service.url}/analytics/credits?days=365`), creditsReady(page, utcDay(-365)));
      const switched = await timed(() => page.getByRole('link', { name: 'Last 30 days' }).click(), creditsReady(page, utcDay(-30)));
      const overviewPage = await freshPage(browser, cookies);
      const overview = await timed(() => overviewPage.goto(`${service.url}/`), overviewReady(overviewPage));
      rounds.push({ overview, credits, switch: switched });
      await page.context().close();
      await overviewPage.context().close();
    }
    const [cold, ...rest] = rounds;
    const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    const base = median(rest.map((r) => r.overview));
    console.log(`bench:web-analytics on ${engine}, headless Chromium, ${values.users} users over ${values.days} days, ${ROUNDS} rounds after a first one (median; each round a fresh browser context)`);
    console.log('measure | first round (service cold) | median | ratio to the overview page | target');
    console.log(`overview page / (baseline) | ${cold!.overview.toFixed(0)} ms | ${base.toFixed(0)} ms | 1.00 | -`);
    const credits = median(rest.map((r) => r.credits));
    const switched = median(rest.map((r) => r.switch));
    console.log(`credits page, 365 days, navigation to interactive | ${cold!.credits.toFixed(0)} ms | ${credits.toFixed(0)} ms | ${(credits / base).toFixed(2)} | ${credits <= 1500 ? 'met' : 'MISSED'} (≤ 1500 ms)`);
    console.log(`switch to 30 days | ${cold!.switch.toFixed(0)} ms | ${switched.toFixed(0)} ms | ${(switched / base).toFixed(2)} | ${switched <= 300 ? 'met' : 'MISSED'} (≤ 300 ms)`);
  } finally {
    await browser.close();
    service.child.kill('SIGTERM');
    await new Promise((r) => service.child.once('exit', r));
    remove();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
