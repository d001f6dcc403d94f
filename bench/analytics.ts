/**
 * Analytics benchmark, one engine per run:
 *   - ingestion: events/s through POST /api/v1/telemetry/events in batches of 1000 (HTTP through
 *     inject: JSON parsing, authentication, validation, one transaction per batch with events
 *     and rollups). The bodies are built on a worker thread, as clients elsewhere would build
 *     them. The first tenth of the events goes one batch at a time, the rest --concurrency at a time;
 *   - p50/p99 latency of each analytics endpoint over 30 and 366 days, over real HTTP on
 *     loopback (keep-alive, the whole body read): authentication, validation, serialization and
 *     sending; the first call of each is reported apart, and p99 needs --iterations of 100 or more
 *     to be more than the slowest call;
 *   - the same activity and tokens answers computed by a raw scan of the events table.
 * Usage: npm run bench:analytics --
 *          [--events 1000000] [--users 200] [--engine pglite|postgres] [--postgres URL] [--iterations 100] [--concurrency 4]
 * PostgreSQL runs in a fresh database created (and dropped) on the server at --postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/core/db/db.js';
import { migrate } from '../src/core/db/migrate.js';
import { PgliteDb } from '../src/core/db/pglite-engine.js';
import { PostgresDb } from '../src/core/db/postgres-engine.js';
import { IdentityService } from '../src/core/identity/service.js';
import { Feeder } from './analytics-feeder.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'pglite' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    iterations: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
  },
});
const total = Number(values.events);
const userCount = Number(values.users);
const iterations = Number(values.iterations);
// Batches in flight at once after the first tenth. On PGlite their transactions take turns, but
// one batch's parsing and validation overlap another's SQL on the database thread.
const concurrency = Number(values.concurrency);
const DAY = 86_400_000;

async function open(): Promise<{ db: Db; cleanup: () => Promise<void> }> {
  if (values.engine === 'postgres') {
    const admin = postgres(values.postgres as string, { max: 1, onnotice: () => undefined });
    const name = `orgctl_bench_${Date.now()}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(values.postgres as string);
    url.pathname = `/${name}`;
    const db = new PostgresDb({ url: url.toString(), poolSize: 10 });
    return {
      db,
      cleanup: async () => {
        await db.close();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-bench-'));
  const db = await PgliteDb.open({ dataDir: path.join(dir, 'pgdata') });
  return { db, cleanup: async () => (await db.close(), rmSync(dir, { recursive: true, force: true })) };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main() {
  const { db, cleanup } = await open();
  try {
    await migrate(db);
    const identity = new IdentityService(db);
    const org = await identity.createOrganization({ name: 'bench', ownerEmail: 'owner@bench.test' });
    const users: string[] = [];
    for (let i = 0; i < userCount; i++) users.push((await identity.addUser({ orgId: org.orgId, email: `u${i}@bench.test`, role: 'member' })).id);
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const lastDayMs = today - DAY;
    // Telemetry starts on 2026-01-14: the data covers the days from then to yesterday (at most 366).
    const days = Math.min(366, Math.round((lastDayMs - Date.UTC(2026, 0, 14)) / DAY) + 1);
    const app = await buildApp(loadConfig({}, { logLevel: 'silent' }), { db }, ['api']);
    await app.ready();
    const auth = { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' };

    const feeder = new Feeder({ total, users, days, lastDayMs, batchSize: 1000, runId: 'b' });
    let stored = 0;
    let lastReport = performance.now();
    const ingest = async (until: number) => {
      for (let body = stored < until ? await feeder.next() : null; body !== null; body = stored < until ? await feeder.next() : null) {
        const res = await app.inject({ method: 'POST', url: '/api/v1/telemetry/events', payload: body, headers: auth });
        if (res.statusCode !== 202) throw new Error(`ingestion: ${res.statusCode} ${res.body}`);
        // Read the result before adding: `stored += …` across an await would add to a stale total.
        const { accepted } = JSON.parse(res.body) as { accepted: number };
        stored += accepted;
        if (performance.now() - lastReport > 15_000) {
          lastReport = performance.now();
          process.stderr.write(`  ingested ${stored} events\n`);
        }
      }
    };
    console.log(`engine ${db.engine}, ${total} events, ${userCount} users over ${days} days`);
    for (const [label, until, lanes] of [
      ['one batch at a time', Math.ceil(total / 10), 1],
      [`${concurrency} batches at a time`, total, concurrency],
    ] as const) {
      const [from, t0] = [stored, performance.now()];
      // Each lane stops asking once the target is met; the stored count is checked after every batch.
      await Promise.all(Array.from({ length: lanes }, () => ingest(until)));
      const seconds = (performance.now() - t0) / 1000;
      console.log(`ingestion, ${label}: ${Math.round((stored - from) / seconds)} events/s (${stored - from} events in ${seconds.toFixed(1)} s, batches of 1000)`);
    }
    await feeder.close();
    if (stored !== total) throw new Error(`stored ${stored} of ${total} events`);
    // The reads are measured in a steady state: statistics current, and the write-back of the
    // load (a checkpoint) done rather than running under the measurements.
    if (db.engine === 'postgres') await db.exec('VACUUM ANALYZE').then(() => db.exec('CHECKPOINT'));
    else await db.exec('ANALYZE');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (url: string) =>
      new Promise<{ status: number; bytes: number; text: () => string }>((resolve, reject) => {
        const req = httpGet(`${base}${url}`, { agent, headers: { authorization: `Bearer ${org.apiKey}` } }, (res) => {
          // The client shares the service's process: it counts the bytes and keeps them only for
          // an error, so that holding 50 MB answers does not load the service's garbage collector.
          const kept: Buffer[] = [];
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (res.statusCode !== 200) kept.push(c);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text: () => Buffer.concat(kept).toString() }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });

    const end = new Date(lastDayMs).toISOString().slice(0, 10);
    const rows: string[][] = [];
    for (const span of [30, 366]) {
      const start = new Date(lastDayMs - (span - 1) * DAY).toISOString().slice(0, 10);
      for (const endpoint of ['tokens', 'tools', 'activity', 'productivity', 'users', 'tokens?group_by=model', 'tools?group_by=tool_name', 'activity?group_by=client']) {
        const [p, extra] = endpoint.split('?');
        const url = `/api/v1/analytics/${p}?startDate=${start}&endDate=${end}${extra ? `&${extra}` : ''}`;
        const times: number[] = [];
        let first = 0;
        let bytes = 0;
        for (let i = 0; i < iterations + 3; i++) {
          const t0 = performance.now();
          const res = await get(url);
          if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text()}`);
          if (i === 0) bytes = res.bytes;
          if (i === 0) first = performance.now() - t0;
          if (i >= 3) times.push(performance.now() - t0); // the first calls warm caches and prepared statements
        }
        rows.push([`${span} days`, endpoint, `${(bytes / 1e6).toFixed(2)} MB`, ms(first), ms(percentile(times, 0.5)), ms(percentile(times, 0.99))]);
      }
      // The same answers from the raw events, for comparison.
      for (const [name, sql] of [
        ['raw scan: daily active users', `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, count(DISTINCT user_id) FROM telemetry_events WHERE org_id = $1 AND occurred_at >= $2::date AND occurred_at < $3::date + 1 GROUP BY 1`],
        ['raw scan: tokens per day', `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, sum((attrs->>'inputTokens')::bigint), sum((attrs->>'cacheReadTokens')::bigint) FROM telemetry_events WHERE org_id = $1 AND type = 'model_request' AND occurred_at >= $2::date AND occurred_at < $3::date + 1 GROUP BY 1`],
      ] as const) {
        const times: number[] = [];
        for (let i = 0; i < Math.min(iterations, 5) + 1; i++) {
          const t0 = performance.now();
          await db.query(sql, [org.orgId, start, end]);
          if (i >= 1) times.push(performance.now() - t0);
        }
        rows.push([`${span} days`, name, '', '', ms(percentile(times, 0.5)), ms(percentile(times, 0.99))]);
      }
    }
    agent.destroy();
    await app.close();
    console.log('\n| range | endpoint | response | first call | p50 | p99 |\n|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
