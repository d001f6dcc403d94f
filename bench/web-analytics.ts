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
import { chromium, type Browser, type Page } from 'playwright-core';

// Telemetry starts on 2026-01-14: a demo organization has at most the days from then to yesterday.
const DAYS_OF_DATA = Math.floor((Date.now() - Date.parse('2026-01-14T00:00:00Z')) / 86_400_000);
const { values } = parseArgs({ options: { users: { type: 'string', default: '200' }, days: { type: 'string', default: String(Math.min(366, DAYS_OF_DATA)) }, rounds: { type: 'string', default: '7' }, data: { type: 'string' } } });
const ROUNDS = Number(values.rounds);
const MAIN = path.resolve('dist/main.js');
const SETUP_TOKEN = 'bench-web-analytics-setup-token';
const PASSWORD = 'bench password 123';
const OWNER = 'owner@bench.test';

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

/** A fresh context (empty cache) signed in as the owner: the session cookie set by the API's login. */
async function signedInPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const res = await context.request.post(`${url}/api/v0/session/login`, { data: { email: OWNER, password: PASSWORD }, headers: { origin: url, 'sec-fetch-site': 'same-origin' } });
  if (!res.ok()) throw new Error(`login answered ${res.status()}: ${await res.text()}`);
  return context.newPage();
}

/** Milliseconds from `action` to the moment `ready` holds in the page. */
async function timed(page: Page, action: () => Promise<unknown>, ready: string): Promise<number> {
  const t0 = performance.now();
  await action();
  await page.waitForFunction(ready, undefined, { polling: 'raf', timeout: 60_000 });
  return performance.now() - t0;
}

const creditsReady = (startDate: string) =>
  `document.querySelector('[data-testid=range-label]')?.textContent?.startsWith(${JSON.stringify(startDate)}) && /\\d/.test(document.querySelector('[data-testid=total-credits]')?.textContent ?? '') && !!document.querySelector('[data-testid=credits-chart-plot] canvas')`;
const overviewReady = `!!document.querySelector('#org-title') && !document.querySelector('.content .muted')?.textContent?.startsWith('Loading')`;

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
  const service = await startService(env);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    // The owner's password, through the one-time setup (refused, and not needed, on a reused directory).
    await fetch(`${service.url}/api/v0/session/setup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: service.url, 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ token: SETUP_TOKEN, password: PASSWORD }) });
    const rounds: { overview: number; credits: number; switch: number }[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      const page = await signedInPage(browser, service.url);
      // The service's first answers build what it keeps; the credits page goes first in the first round so that it is measured cold.
      const credits = await timed(page, () => page.goto(`${service.url}/analytics/credits?days=365`), creditsReady(utcDay(-365)));
      const switched = await timed(page, () => page.getByRole('link', { name: 'Last 30 days' }).click(), creditsReady(utcDay(-30)));
      const overviewPage = await signedInPage(browser, service.url);
      const overview = await timed(overviewPage, () => overviewPage.goto(`${service.url}/`), overviewReady);
      rounds.push({ overview, credits, switch: switched });
      await page.context().close();
      await overviewPage.context().close();
    }
    const [first, ...rest] = rounds;
    const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    const base = median(rest.map((r) => r.overview));
    console.log(`bench:web-analytics on ${engine}, headless Chromium, ${values.users} users over ${values.days} days, ${ROUNDS} rounds after a first one (median; each round a fresh browser context)`);
    console.log('measure | first round (service cold) | median | ratio to the overview page | target');
    console.log(`overview page / (baseline) | ${first!.overview.toFixed(0)} ms | ${base.toFixed(0)} ms | 1.00 | -`);
    const credits = median(rest.map((r) => r.credits));
    const switched = median(rest.map((r) => r.switch));
    console.log(`credits page, 365 days, navigation to interactive | ${first!.credits.toFixed(0)} ms | ${credits.toFixed(0)} ms | ${(credits / base).toFixed(2)} | ${credits <= 1500 ? 'met' : 'MISSED'} (≤ 1500 ms)`);
    console.log(`switch to 30 days | ${first!.switch.toFixed(0)} ms | ${switched.toFixed(0)} ms | ${(switched / base).toFixed(2)} | ${switched <= 300 ? 'met' : 'MISSED'} (≤ 300 ms)`);
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
