/**
 * Analytics benchmark, one engine per run, over one database per event count (default 1M and
 * 10M events, the same users and days, so the same rollup rows):
 *   - ingestion: events/s through POST /api/v1/telemetry/events in batches of 1000 (HTTP through
 *     inject: JSON parsing, authentication, validation, one transaction per batch with events
 *     and rollups). The bodies are built in rounds of 250 on a worker thread, with the clock
 *     stopped, as clients elsewhere would build them: on two cores the generator would take a
 *     quarter of one from the service. The first tenth of the events goes one batch at a time,
 *     the rest --concurrency at a time;
 *   - p50/p99 latency of each analytics endpoint over 30 and 366 days, over real HTTP on
 *     loopback (keep-alive, the whole body read, by a client on a worker thread, timed there):
 *     authentication, validation, serialization and sending. The databases are measured in
 *     turns, ten calls each, so that a drift of the machine weighs on all of them alike, and the
 *     table gives the ratio of the last count to the first (the baseline). The first call of each
 *     is reported apart. Each database gets at least --iterations calls (default 300: p99 is the
 *     third slowest, not one outlier) and at least --seconds of calls (default 5): a pause of the
 *     machine of a few milliseconds (a collection, a scheduler slice on two cores) is one of the
 *     three slowest of 300 calls of 1 ms, so p99 then measured the pause, not the endpoint;
 *   - the same activity and tokens answers computed by a raw scan of the events table.
 * Every user's sessions name one of 40 repositories, so the repository reports
 * (/repositories, /repositories/readiness, group_by=repository) read as many rollup rows at 1M
 * events as at 10M.
 * Usage: npm run bench:analytics --
 *          [--events 1000000,10000000] [--users 200] [--engine pglite|postgres] [--postgres URL]
 *          [--iterations 300] [--seconds 5] [--concurrency 4] [--keep NAME] [--endpoints tokens,repositories,...]
 * PostgreSQL runs in fresh databases created (and dropped) on the server at --postgres.
 * With --keep, the data stays for the next run (PostgreSQL: databases NAME_<events>; PGlite: data
 * directories NAME-<events>), and a run that finds one filled skips its ingestion and measures
 * only the reads: after a change to a read path, the 10M-event figures take minutes, not a reload.
 */
import { parseArgs } from 'node:util';
import { addDays, dayStartMs, daysBetween, utcDay } from '../src/core/days.js';
import { EARLIEST_DAY } from '../src/events/timestamps.js';
import { setUp, type Setup } from './analytics-setup.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000,10000000' },
    users: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'pglite' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    iterations: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '4' },
    keep: { type: 'string' },
    endpoints: { type: 'string' },
  },
});
const counts = (values.events as string).split(',').map(Number);
const iterations = Number(values.iterations);
const minMs = Number(values.seconds) * 1000;
const engine = values.engine === 'postgres' ? 'postgres' : 'pglite';
/** Calls to one database before the next one's turn. */
const TURN = 10;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(1)}`;
const each = <T>(xs: T[], f: (x: T) => string) => xs.map(f).join(' → ');
const ratio = (xs: number[]) => (xs.length > 1 ? (xs[xs.length - 1]! / xs[0]!).toFixed(2) : '');

async function timed(s: Setup, url: string) {
  const res = await s.get(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
  return { ms: res.ms, bytes: res.bytes };
}

/** One endpoint on every database: first call, two warm-up calls, then at least `iterations` calls and `minMs` of calls each, in turns. */
async function measure(setups: Setup[], url: string) {
  const first: { ms: number; bytes: number }[] = [];
  for (const s of setups) {
    first.push(await timed(s, url));
    for (let i = 0; i < 2; i++) await timed(s, url); // warm caches and prepared statements
  }
  const times = setups.map(() => [] as number[]);
  const spent = setups.map(() => 0);
  while (times.some((t, k) => t.length < iterations || spent[k]! < minMs)) {
    for (const [k, s] of setups.entries()) {
      for (let i = 0; i < TURN; i++) {
        const t = (await timed(s, url)).ms;
        times[k]!.push(t);
        spent[k]! += t;
      }
    }
  }
  return { first, p50: times.map((t) => percentile(t, 0.5)), p99: times.map((t) => percentile(t, 0.99)) };
}

async function rawScan(s: Setup, sql: string, start: string, end: string) {
  const times: number[] = [];
  for (let i = 0; i < Math.min(iterations, 5) + 1; i++) {
    const t0 = performance.now();
    await s.db.query(sql, [s.orgId, start, end]);
    if (i >= 1) times.push(performance.now() - t0);
  }
  return times;
}

const RAW_SCANS = [
  [
    'raw scan: daily active users',
    `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, count(DISTINCT user_id) FROM telemetry_events WHERE org_id = $1 AND occurred_at >= $2::date AND occurred_at < $3::date + 1 GROUP BY 1`,
  ],
  [
    'raw scan: tokens per day',
    `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, sum((attrs->>'inputTokens')::bigint), sum((attrs->>'cacheReadTokens')::bigint)
     FROM telemetry_events
     WHERE org_id = $1 AND type = 'model_request' AND occurred_at >= $2::date AND occurred_at < $3::date + 1
     GROUP BY 1`,
  ],
] as const;
const ALL_ENDPOINTS = [
  'tokens',
  'tools',
  'activity',
  'productivity',
  'users',
  'tokens?group_by=model',
  'tools?group_by=tool_name',
  'activity?group_by=client',
  'repositories',
  'repositories/readiness',
  'tokens?group_by=repository',
];
// --endpoints measures a few (the 10M-event database takes long to fill on a small machine); raw scans only with all of them.
const ENDPOINTS = values.endpoints === undefined ? ALL_ENDPOINTS : (values.endpoints as string).split(',');

async function main() {
  const lastDay = addDays(utcDay(Date.now()), -1);
  const lastDayMs = dayStartMs(lastDay);
  // Telemetry starts on 2026-01-14: the data covers the days from then to yesterday (at most 366).
  const days = Math.min(366, daysBetween(EARLIEST_DAY, lastDay) + 1);
  console.log(`engine ${engine}, ${counts.join(' and ')} events`);
  const setups: Setup[] = [];
  try {
    for (const events of counts) {
      const keep = values.keep === undefined ? undefined : engine === 'postgres' ? `${values.keep}_${events}` : `${values.keep}-${events}`;
      setups.push(
        await setUp({
          engine,
          postgres: values.postgres as string,
          events,
          users: Number(values.users),
          days,
          lastDayMs,
          concurrency: Number(values.concurrency),
          keep,
        }),
      );
    }
    const rows: string[][] = [];
    for (const span of [30, 366]) {
      const start = addDays(lastDay, 1 - span);
      for (const endpoint of ENDPOINTS) {
        const [p, extra] = endpoint.split('?');
        const m = await measure(setups, `/api/v1/analytics/${p}?startDate=${start}&endDate=${lastDay}${extra ? `&${extra}` : ''}`);
        rows.push([
          `${span} days`,
          endpoint,
          each(m.first, (f) => `${(f.bytes / 1e6).toFixed(2)} MB`),
          each(m.first, (f) => ms(f.ms)),
          each(m.p50, ms),
          each(m.p99, ms),
          ratio(m.p50),
          ratio(m.p99),
        ]);
      }
      // The same answers from the raw events, for comparison.
      for (const [name, sql] of values.endpoints === undefined ? RAW_SCANS : []) {
        const times: number[][] = [];
        for (const s of setups) times.push(await rawScan(s, sql, start, lastDay));
        const p50 = times.map((t) => percentile(t, 0.5));
        const p99 = times.map((t) => percentile(t, 0.99));
        rows.push([`${span} days`, name, '', '', each(p50, ms), each(p99, ms), ratio(p50), ratio(p99)]);
      }
    }
    const by = counts.length > 1 ? `${counts[counts.length - 1]! / counts[0]!}× the events: ` : '';
    console.log(`\nTimes in ms (${each(counts, String)} events); ratios: ${by}${counts.length > 1 ? 'last / first' : 'one count, none'}`);
    console.log('| range | endpoint | response | first call | p50 | p99 | p50 ratio | p99 ratio |\n|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    for (const s of setups) await s.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
