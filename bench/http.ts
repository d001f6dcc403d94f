/**
 * HTTP overhead of the service against a raw node:http server, in one run:
 *   (a) raw node:http answering a JSON like /api/v0/me
 *   (b) GET /api/v0/me (auth from the credential cache, no query)
 *   (c) GET /api/v0/organization/usage/limits/global (auth + one database read)
 *   (d) p99 of (b) on PGlite while one-second queries keep the embedded database busy
 * on PGlite and (when reachable) PostgreSQL. Load comes from autocannon in a separate process.
 * On a shared machine throughput drifts from minute to minute, so each figure is measured in
 * `--rounds` rounds, each right after a run of (a), and the median round is reported with its ratio.
 * Usage: npm run bench:http [-- --seconds 5 --rounds 3 --connections 50 --postgres postgres://postgres@127.0.0.1:5432/postgres]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/core/db/db.js';
import { migrate } from '../src/core/db/migrate.js';
import { PgliteDb } from '../src/core/db/pglite-engine.js';
import { PostgresDb } from '../src/core/db/postgres-engine.js';
import { OperatorIdentity } from '../src/core/identity/operator.js';
import { IdentityService } from '../src/core/identity/service.js';
import { fmt, load, type LoadResult } from './load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

async function rawServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const body = JSON.stringify({
    principalId: '00000000-0000-4000-8000-000000000000',
    kind: 'user',
    email: 'owner@example.com',
    name: 'owner@example.com',
    role: 'owner',
    organization: { id: '00000000-0000-4000-8000-000000000001', name: 'bench' },
    credential: { type: 'api_key', keyId: '00000000-0000-4000-8000-000000000002' },
  });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function serveOrgctl(db: Db) {
  await migrate(db);
  const { apiKey } = await new OperatorIdentity({ db, identity: new IdentityService({ db }) }).createOrganization({
    name: 'bench',
    ownerEmail: `owner-${Date.now()}@example.com`,
  });
  // Production settings: info-level request logs, written to a file descriptor as pino does.
  // autocannon sends thousands of requests a second from one key: per-principal rates would answer most of them 429.
  const app = await buildApp(loadConfig({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', RATE_LIMITS: 'false' }), { db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, headers: { authorization: `Bearer ${apiKey}` }, close: () => app.close() };
}

const rows: { name: string; r: LoadResult; ratio?: number }[] = [];
function record(name: string, r: LoadResult, ratio?: number) {
  rows.push({ name, r, ratio });
  const bad = r.non2xx + r.errors > 0 ? `  (!) ${r.non2xx} non-2xx, ${r.errors} errors` : '';
  console.log(
    `${name.padEnd(52)} ${fmt(r.requestsPerSec).padStart(8)} req/s  p50 ${fmt(r.p50, 1).padStart(6)} ms  p99 ${fmt(r.p99, 1).padStart(6)} ms` +
      (ratio !== undefined ? `  ${fmt(ratio, 2)}× raw` : '') +
      bad,
  );
}

/** `rounds` × (raw, then target): the round with the median ratio. */
async function paired(rawUrl: string, url: string, headers: Record<string, string>): Promise<{ r: LoadResult; ratio: number; raw: LoadResult }> {
  const results: { r: LoadResult; ratio: number; raw: LoadResult }[] = [];
  for (let i = 0; i < rounds; i++) {
    const raw = await load(rawUrl, { seconds, connections });
    const r = await load(url, { seconds, connections, headers });
    results.push({ r, raw, ratio: r.requestsPerSec / raw.requestsPerSec });
  }
  results.sort((x, y) => x.ratio - y.ratio);
  return results[Math.floor(results.length / 2)]!;
}

async function main() {
  console.log(`bench/http: ${seconds}s per run, ${rounds} rounds (median shown), ${connections} connections, autocannon in a separate process\n`);
  const raw = await rawServer();
  await load(raw.url, { seconds: 2, connections }); // warm-up
  record('(a) raw node:http', await load(raw.url, { seconds, connections }));

  const engines: [string, () => Promise<Db>][] = [['PGlite', () => PgliteDb.open({ dataDir: 'memory://' })]];
  const pgReachable = await postgres(values.postgres, { max: 1, connect_timeout: 2 })
    .unsafe('SELECT 1')
    .then(() => true)
    .catch(() => false);
  let dropPg: (() => Promise<void>) | undefined;
  if (pgReachable) {
    const name = `orgctl_bench_${process.pid}`;
    const admin = postgres(values.postgres, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(values.postgres);
    url.pathname = `/${name}`;
    engines.push(['PostgreSQL', async () => new PostgresDb({ url: url.toString(), poolSize: 10 })]);
    dropPg = async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    console.log(`PostgreSQL at ${values.postgres} not reachable: skipped`);
  }

  for (const [engine, open] of engines) {
    const db = await open();
    const svc = await serveOrgctl(db);
    await load(`${svc.url}/api/v0/me`, { seconds: 2, connections, headers: svc.headers });
    const me = await paired(raw.url, `${svc.url}/api/v0/me`, svc.headers);
    record(`(b) GET /api/v0/me [${engine}]`, me.r, me.ratio);
    const limit = await paired(raw.url, `${svc.url}/api/v0/organization/usage/limits/global`, svc.headers);
    record(`(c) GET /api/v0/organization/usage/limits/global [${engine}]`, limit.r, limit.ratio);
    if (engine === 'PGlite') {
      // Keep the embedded database busy with back-to-back one-second queries for the whole run.
      let busy = true;
      let slowQueries = 0;
      const hog = (async () => {
        while (busy) {
          await db.query('SELECT pg_sleep(1)');
          slowQueries++;
        }
      })();
      const during = await load(`${svc.url}/api/v0/me`, { seconds: seconds * 2, connections, headers: svc.headers });
      busy = false;
      await hog;
      record(`(d) GET /api/v0/me during ${slowQueries} × 1 s queries [PGlite]`, during);
    }
    await svc.close();
    await db.close();
  }
  await dropPg?.();
  await raw.close();

  const get = (prefix: string, engine: string) => rows.find((r) => r.name.startsWith(prefix) && r.name.includes(`[${engine}]`));
  console.log('\nTargets:');
  const check = (label: string, ok: boolean | undefined) => console.log(`  ${ok === undefined ? 'n/a ' : ok ? 'PASS' : 'MISS'}  ${label}`);
  for (const engine of ['PGlite', 'PostgreSQL']) check(`(b) ≥ 0.6× raw [${engine}]`, get('(b)', engine) && (get('(b)', engine)!.ratio ?? 0) >= 0.6);
  check('(c) ≥ 0.2× raw [PostgreSQL]', get('(c)', 'PostgreSQL') && (get('(c)', 'PostgreSQL')!.ratio ?? 0) >= 0.2);
  check('(c) ≥ 0.08× raw [PGlite]', get('(c)', 'PGlite') && (get('(c)', 'PGlite')!.ratio ?? 0) >= 0.08);
  check('(d) p99 < 50 ms [PGlite]', get('(d)', 'PGlite') && get('(d)', 'PGlite')!.r.p99 < 50);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
