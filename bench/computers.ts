/**
 * Computers, in one run on an in-process service (PGlite by default, or --postgres URL):
 *   (1) 100 concurrent POST install-deps on one computer: exactly one 202, the rest 409, one session row;
 *   (2) time from POST install-deps to the host agent starting the session (session startedAt),
 *       p50/p99 over 50 runs, with a real `orgctl agent` process long-polling (target p99 < 500 ms);
 *   (3) requests/s of GET /api/v0/computers/{id} against a raw node:http server answering the same
 *       JSON, with autocannon in a separate process.
 * Usage: npx tsc -p tsconfig.bench.json && node .bench-build/bench/computers.js [--runs 50] [--seconds 10] [--connections 50] [--postgres URL]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { buildServices } from '../src/services.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/core/db/db.js';
import { loadMigrations, migrate } from '../src/core/db/migrate.js';
import { PgliteDb } from '../src/core/db/pglite-engine.js';
import { PostgresDb } from '../src/core/db/postgres-engine.js';
import { OperatorIdentity } from '../src/core/identity/operator.js';
import { IdentityService } from '../src/core/identity/service.js';
import { fmt, load } from './load.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    postgres: { type: 'string' },
  },
});
const here = fileURLToPath(new URL('.', import.meta.url));
// The compiled script has no SQL beside it: the migrations come from the source tree.
const migrations = loadMigrations(path.resolve(here, '../../src/core/db/migrations'));
const MAIN = path.resolve(here, '../src/main.js');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const db: Db = values.postgres ? new PostgresDb({ url: values.postgres, poolSize: 10 }) : await PgliteDb.open({ dataDir: 'memory://' });
  await migrate(db, migrations);
  const { apiKey } = await new OperatorIdentity({ db, identity: new IdentityService({ db }) }).createOrganization({
    name: 'bench',
    ownerEmail: `owner-${Date.now()}@example.com`,
  });
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMITS: 'false' });
  const services = buildServices(config, { db });
  const app = await buildApp(config, { services });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { engine } = services;
  engine.start();
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };
  console.log(`bench/computers on ${db.engine}\n`);

  // (1) the race
  const race = (await call('POST', '/api/v0/computers', { name: 'race', autoInstallDeps: false })).body as { id: string };
  const statuses = await Promise.all(Array.from({ length: 100 }, () => call('POST', `/api/v0/computers/${race.id}/install-deps`).then((r) => r.status)));
  const sessions = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM install_sessions WHERE computer_id = $1`, [race.id]))[0]!.n;
  const ok = statuses.filter((s) => s === 202).length;
  console.log(
    `(1) 100 concurrent install-deps: ${ok} × 202, ${statuses.filter((s) => s === 409).length} × 409, ${sessions} session row(s)  ${ok === 1 && sessions === 1 ? 'OK' : 'FAILED'}`,
  );

  // (2) latency to the agent, with a real agent process
  const c = (await call('POST', '/api/v0/computers', { name: 'bench-box', autoInstallDeps: false })).body as { id: string };
  const workdir = mkdtempSync(path.join(tmpdir(), 'orgctl-bench-agent-'));
  const agent = spawn(process.execPath, [MAIN, 'agent', '--url', url, '--key', apiKey, '--computer', 'bench-box', '--workdir', workdir], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !(await call('GET', `/api/v0/computers/${c.id}`)).body.hostId; i++) await sleep(50);
  const latencies: number[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const t0 = Date.now();
    const res = await call('POST', `/api/v0/computers/${c.id}/install-deps`);
    if (res.status !== 202) throw new Error(`install-deps answered ${res.status}`);
    const steps = res.body.provisioningSteps as { id: string; installSessionId?: string }[];
    const sessionId = steps.find((s) => s.id === 'install-dependencies')!.installSessionId!;
    for (;;) {
      const s = (await db.query<{ started_at: Date | null; status: string }>(`SELECT started_at, status FROM install_sessions WHERE id = $1`, [sessionId]))[0]!;
      if (s.started_at && s.status !== 'running') {
        latencies.push(s.started_at.getTime() - t0);
        break;
      }
      await sleep(5);
    }
  }
  agent.kill('SIGTERM');
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  console.log(
    `(2) POST install-deps → agent starts the session, ${latencies.length} runs: p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms  (target p99 < 500 ms: ${p99 < 500 ? 'met' : 'NOT met'})`,
  );

  // (3) GET computer against raw node:http
  const sample = JSON.stringify((await call('GET', `/api/v0/computers/${c.id}`)).body);
  const raw = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(sample) });
    res.end(sample);
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
  const opts = { seconds: Number(values.seconds), connections: Number(values.connections) };
  await load(rawUrl, { ...opts, seconds: 2 });
  const base = await load(rawUrl, opts);
  await load(`${url}/api/v0/computers/${c.id}`, { ...opts, seconds: 2, headers });
  const ours = await load(`${url}/api/v0/computers/${c.id}`, { ...opts, headers });
  console.log(
    `(3) raw node:http (same ${sample.length}-byte JSON)      ${fmt(base.requestsPerSec).padStart(8)} req/s  p50 ${fmt(base.p50, 1)} ms  p99 ${fmt(base.p99, 1)} ms`,
  );
  console.log(
    `    GET /api/v0/computers/{id} [${db.engine}]   ${fmt(ours.requestsPerSec).padStart(8)} req/s  p50 ${fmt(ours.p50, 1)} ms  p99 ${fmt(ours.p99, 1)} ms  ${fmt(ours.requestsPerSec / base.requestsPerSec, 2)}× raw` +
      (ours.non2xx + ours.errors > 0 ? `  (!) ${ours.non2xx} non-2xx, ${ours.errors} errors` : ''),
  );
  await new Promise<void>((r) => raw.close(() => r()));
  await engine.stop();
  await app.close();
  await db.close();
  rmSync(workdir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
