/**
 * bench:web-analytics — how fast the analytics pages are in a real browser. A real `orgctl serve`
 * on a demo organization (default 200 users over 366 days, or the days since 2026-01-14 when fewer), Debian's Chromium (headless), and for
 * each round a fresh browser context (cold browser cache, a new session):
 *
 *   - baseline: the Overview page (`/`), from navigation to its organization card drawn;
 *   - credits: `/analytics/credits?days=365`, from navigation to the total and the stacked chart drawn;
 *   - switch: on that page, once it has settled (no request for 500 ms, as when a person has
 *     read it), a click on "Last 30 days" to the 30-day total and chart drawn.
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
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { addDays, daysBetween, utcDay } from '../src/core/days.js';
import { EARLIEST_DAY } from '../src/events/timestamps.js';
import { cli, freshPage, acceptInvitation, invite, launchChromium, median, serviceStorage, startService, timed } from './web-harness.js';

// Telemetry starts on 2026-01-14: a demo organization has at most the days from then to yesterday.
const DAYS_OF_DATA = daysBetween(EARLIEST_DAY, utcDay(Date.now()));
const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    days: { type: 'string', default: String(Math.min(366, DAYS_OF_DATA)) },
    rounds: { type: 'string', default: '7' },
    data: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const OWNER = 'owner@bench.test';

const dayFromToday = (days: number) => addDays(utcDay(Date.now()), days);

/** The credits page of the range starting on `startDate`, drawn: its range, its total and the chart's canvas. */
const creditsReady = (page: Page, startDate: string) => async () => {
  await page.getByTestId('range-label').filter({ hasText: startDate }).waitFor({ timeout: 60_000 });
  await page.getByTestId('total-credits').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=credits-chart-plot] canvas').waitFor({ timeout: 60_000 });
};
const overviewReady = (page: Page) => () => page.getByRole('heading', { name: 'Organization this month' }).waitFor({ timeout: 60_000 });

async function main() {
  const fresh = !(values.data && existsSync(values.data)) || process.env.DATABASE_URL !== undefined;
  const storage = serviceStorage(values.data);
  const env = storage.env;
  if (fresh) {
    cli(['init', '--org', 'bench', '--owner-email', OWNER], env);
    const t0 = performance.now();
    cli(['demo', 'seed', '--users', values.users!, '--days', values.days!], env);
    console.log(`seeded ${values.users} users over ${values.days} days in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const token = invite(env, 'manager');
  const service = await startService(env);
  const browser = await launchChromium();
  try {
    const cookies = await acceptInvitation(browser, service, token, 'Bench manager');
    const rounds: { overview: number; credits: number; switch: number }[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      const page = await freshPage(browser, cookies);
      // The service's first answers build what it keeps; the credits page goes first in the first round so that it is measured cold.
      const credits = await timed(() => page.goto(`${service.url}/analytics/credits?days=365`), creditsReady(page, dayFromToday(-365)));
      // A person reads the year before switching: the page has settled (it fetches the presets' rows once drawn).
      await page.waitForLoadState('networkidle');
      const switched = await timed(() => page.getByRole('link', { name: 'Last 30 days' }).click(), creditsReady(page, dayFromToday(-30)));
      const overviewPage = await freshPage(browser, cookies);
      const overview = await timed(() => overviewPage.goto(`${service.url}/`), overviewReady(overviewPage));
      rounds.push({ overview, credits, switch: switched });
      await page.context().close();
      await overviewPage.context().close();
    }
    const [cold, ...rest] = rounds;
    const engine = storage.engine;
    const base = median(rest.map((r) => r.overview));
    console.log(
      `bench:web-analytics on ${engine}, headless Chromium, ${values.users} users over ${values.days} days, ${ROUNDS} rounds after a first one (median; each round a fresh browser context)`,
    );
    console.log('measure | first round (service cold) | median | ratio to the overview page | target');
    console.log(`overview page / (baseline) | ${cold!.overview.toFixed(0)} ms | ${base.toFixed(0)} ms | 1.00 | -`);
    const credits = median(rest.map((r) => r.credits));
    const switched = median(rest.map((r) => r.switch));
    console.log(
      `credits page, 365 days, navigation to interactive | ${cold!.credits.toFixed(0)} ms | ${credits.toFixed(0)} ms | ${(credits / base).toFixed(2)} | ${credits <= 1500 ? 'met' : 'MISSED'} (≤ 1500 ms)`,
    );
    console.log(
      `switch to 30 days | ${cold!.switch.toFixed(0)} ms | ${switched.toFixed(0)} ms | ${(switched / base).toFixed(2)} | ${switched <= 300 ? 'met' : 'MISSED'} (≤ 300 ms)`,
    );
  } finally {
    await browser.close();
    await service.stop();
    storage.remove();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
