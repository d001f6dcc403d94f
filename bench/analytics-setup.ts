/**
 * One database of the analytics benchmark: opened (fresh, or kept from an earlier run), filled
 * with `events` synthetic events through POST /api/v1/telemetry/events, and served over HTTP on
 * loopback for the reads.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/core/db/db.js';
import { migrate } from '../src/core/db/migrate.js';
import { PgliteDb } from '../src/core/db/pglite-engine.js';
import { PostgresDb } from '../src/core/db/postgres-engine.js';
import { OperatorIdentity } from '../src/core/identity/operator.js';
import { IdentityService } from '../src/core/identity/service.js';
import { Feeder } from './analytics-feeder.js';
import { HttpClient, type Answer } from './http-client.js';

export interface SetupOptions {
  engine: 'pglite' | 'postgres';
  /** The server's address for PostgreSQL; each setup gets a database of its own there. */
  postgres: string;
  events: number;
  users: number;
  days: number;
  lastDayMs: number;
  /** Batches in flight at once after the first tenth. */
  concurrency: number;
  /** Keep the data under this name (database, or data directory) for the next run. */
  keep: string | undefined;
}

export interface Setup {
  events: number;
  db: Db;
  orgId: string;
  /** GET over keep-alive HTTP from a client on its own thread, timed there. */
  get(url: string): Promise<Answer>;
  close(): Promise<void>;
}

/** A fresh (or kept) database of the engine: PostgreSQL in a database of its own on the server, PGlite in a temp directory. */
export async function openBenchDb(o: Pick<SetupOptions, 'engine' | 'postgres' | 'events' | 'keep'>): Promise<{ db: Db; cleanup: () => Promise<void> }> {
  if (o.engine === 'postgres') {
    const admin = postgres(o.postgres, { max: 1, onnotice: () => undefined });
    const name = o.keep ?? `orgctl_bench_${Date.now()}_${o.events}`;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`--keep: ${name} is not a plain database name`);
    if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 0) await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(o.postgres);
    url.pathname = `/${name}`;
    const db = new PostgresDb({ url: url.toString(), poolSize: 10 });
    return {
      db,
      cleanup: async () => {
        await db.close();
        if (o.keep === undefined) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dir = o.keep ?? mkdtempSync(path.join(tmpdir(), 'orgctl-bench-'));
  mkdirSync(dir, { recursive: true });
  const db = await PgliteDb.open({ dataDir: path.join(dir, 'pgdata') });
  return {
    db,
    cleanup: async () => {
      await db.close();
      if (o.keep === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The organization of a kept run, with a new key, when all its events are stored. */
async function keptRun(db: Db, operator: OperatorIdentity, events: number) {
  const org = (await operator.listOrganizations()).find((x) => x.name === 'bench');
  if (!org) return undefined;
  const [row] = await db.query<{ events: string }>('SELECT count(*)::text AS events FROM telemetry_events WHERE org_id = $1', [org.id]);
  if (Number(row?.events) !== events) throw new Error(`--keep: the kept database holds ${row?.events} events, not ${events}; drop it or keep another`);
  const { secret } = await operator.createKey(org.id, { email: 'owner@bench.test' }, 'bench');
  return { orgId: org.id, apiKey: secret };
}

/** Bodies built per round, with the clock stopped (about 80 MB of them). */
const ROUND = 250;

/**
 * Sends the events as a service receives them: the first tenth one batch at a time, the rest
 * `concurrency` at a time. Only the sending of each round is timed, not the building of its bodies.
 */
async function ingest(app: FastifyInstance, apiKey: string, users: string[], o: SetupOptions) {
  const feeder = new Feeder({ total: o.events, users, days: o.days, lastDayMs: o.lastDayMs, batchSize: 1000, runId: 'b' });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  let stored = 0;
  let lastReport = performance.now();
  const lane = async (round: string[]) => {
    for (let body = round.shift(); body !== undefined; body = round.shift()) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/telemetry/events', payload: body, headers });
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
  for (const [label, until, lanes] of [
    ['one batch at a time', Math.ceil(o.events / 10), 1],
    [`${o.concurrency} batches at a time`, o.events, o.concurrency],
  ] as const) {
    const from = stored;
    let seconds = 0;
    for (let round = await feeder.round(ROUND, until - stored); round.length > 0; round = stored < until ? await feeder.round(ROUND, until - stored) : []) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: lanes }, () => lane(round)));
      seconds += (performance.now() - t0) / 1000;
    }
    console.log(
      `  ingestion, ${label}: ${Math.round((stored - from) / seconds)} events/s (${stored - from} events in ${seconds.toFixed(1)} s, batches of 1000)`,
    );
  }
  await feeder.close();
  if (stored !== o.events) throw new Error(`stored ${stored} of ${o.events} events`);
}

export async function setUp(o: SetupOptions): Promise<Setup> {
  const { db, cleanup } = await openBenchDb(o);
  await migrate(db);
  const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
  // The benchmark's clients ingest and read as fast as they can: no per-principal rates, and no
  // shedding while this process builds a round of bodies (the clock is stopped then).
  const app = await buildApp(loadConfig({}, { logLevel: 'silent', rateLimits: false, overloadMaxEventLoopDelayMs: 0 }), { db }, ['api']);
  await app.ready();
  const kept = await keptRun(db, operator, o.events);
  if (kept) console.log(`${o.events} events kept from an earlier run (--keep ${o.keep})`);
  const org = kept ?? (await operator.createOrganization({ name: 'bench', ownerEmail: 'owner@bench.test' }));
  if (!kept) {
    const users: string[] = [];
    for (let i = 0; i < o.users; i++) users.push((await operator.addUser({ orgId: org.orgId, email: `u${i}@bench.test`, role: 'member' })).id);
    console.log(`${o.events} events, ${o.users} users over ${o.days} days:`);
    await ingest(app, org.apiKey, users, o);
  }
  // The reads are measured in a steady state: statistics current, and the write-back of the
  // load (a checkpoint) done rather than running under the measurements.
  if (db.engine === 'postgres') await db.exec('VACUUM ANALYZE').then(() => db.exec('CHECKPOINT'));
  else await db.exec('ANALYZE');
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = new HttpClient(base, `Bearer ${org.apiKey}`);
  return {
    events: o.events,
    db,
    orgId: org.orgId,
    get: (url) => client.get(url),
    close: async () => {
      await client.close();
      await app.close();
      await cleanup();
    },
  };
}
