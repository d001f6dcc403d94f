/**
 * `/healthz` latency of a running `orgctl serve` (PGlite, default settings but the ones given)
 * while clients try to hold it (issue 38), on loopback only, in bounded phases:
 *   (a) nothing else going on
 *   (b) a slow-client flood: silent connections, headers that never end and bodies that trickle,
 *       from several loopback addresses, each asking for more than HTTP_MAX_CONNECTIONS_PER_ADDRESS (256)
 *   (c) big bodies: `--bodies` OTLP exports of `--body-mib` MiB at once, as many members would send
 * with the server's largest resident memory during each phase. The probes come from 127.0.0.2, as a load
 * balancer's health checks come from an address of their own, each to the main port and to
 * HEALTH_PORT, from threads of their own.
 * Usage: npm run bench:flood [-- --seconds 10 --per-address 300 --addresses 8 --bodies 120 --body-mib 19 --cpu-prof]
 * With --cpu-prof, the service runs profiled and the bench reports the longest time its event loop
 * ran JavaScript without a break in each phase. A probe also waits for its connection to be taken:
 * Node takes one per listener and turn of the loop, and a turn's reads of sockets count as idle in
 * the profile, so a probe on the main port can wait longer than this says.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { holdConnections, rawRequest } from '../test/helpers/slow-clients.js';
import { longestBusyStretch } from './busy-stretches.js';
import { fmtHealth, healthDuring, type HealthLatency } from './load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'per-address': { type: 'string', default: '300' },
    addresses: { type: 'string', default: '8' },
    bodies: { type: 'string', default: '120' },
    'body-mib': { type: 'string', default: '19' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const perAddress = Number(values['per-address']);
const addresses = Number(values.addresses);
const bodies = Number(values.bodies);
const bodyMiB = Number(values['body-mib']);
const profileDir = values['cpu-prof'] ? mkdtempSync(path.join(tmpdir(), 'orgctl-bench-flood-prof-')) : undefined;

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `orgctl serve` on a new data directory: its port, owner key, pid and a way to stop it. */
async function serve(dir: string) {
  const child = spawn(process.execPath, [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), MAIN, 'serve'], {
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', PORT: '0', HEALTH_PORT: '0', LOG_LEVEL: 'warn', RATE_LIMITS: 'false' },
    stdio: 'pipe',
  });
  const spawnedAt = performance.now();
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('API description')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`orgctl serve exited with ${code}:\n${out}`)));
  });
  return {
    spawnedAt,
    port: Number(/listening on http:\/\/[^:]+:(\d+)/.exec(out)![1]),
    healthPort: Number(/Health checks on http:\/\/[^:]+:(\d+)/.exec(out)![1]),
    key: /Owner API key[^:]*: (ock_\w+)/.exec(out)![1]!,
    alive: () => child.exitCode === null && child.signalCode === null,
    rssMiB: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))),
  };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-bench-flood-'));
  const svc = await serve(dir);
  const windows: { name: string; from: number; to: number }[] = [];
  // The server's resident memory, sampled every 100 ms; each line reports the largest since the last.
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, svc.rssMiB())), 100);
  const line = (name: string, { main, health }: { main: HealthLatency; health: HealthLatency }) => {
    console.log(`${name.padEnd(56)} ${fmtHealth(main)}  RSS up to ${rssMax.toFixed(0)} MiB`);
    console.log(`${'    on HEALTH_PORT'.padEnd(56)} ${fmtHealth(health)}`);
    rssMax = 0;
  };
  // The same probes, at once, to the main port and to the health listener.
  const probes = async (work: Promise<unknown>) => {
    const [main, health] = await Promise.all([healthDuring(svc.port, work), healthDuring(svc.healthPort, work)]);
    return { main, health };
  };
  try {
    console.log(`bench/flood: orgctl serve on 127.0.0.1:${svc.port} (PGlite), ${seconds} s per phase\n`);
    rssMax = 0;
    line('(a) idle', await probes(sleep(seconds * 1000)));

    // A third of each address's connections of each kind; every address asks for `perAddress`.
    const kinds = ['idle', 'slow-headers', 'slow-body'] as const;
    const froms = Array.from({ length: addresses }, (_, i) => `127.0.1.${i + 1}`);
    const flood = await Promise.all(
      froms.flatMap((from) =>
        kinds.map((behaviour) =>
          holdConnections({ port: svc.port, count: Math.ceil(perAddress / kinds.length), behaviour, from, headers: { authorization: `Bearer ${svc.key}` } }),
        ),
      ),
    );
    const asked = flood.reduce((n, f) => n + f.held.length, 0);
    const floodFrom = performance.now() - svc.spawnedAt;
    const health = await probes(sleep(seconds * 1000));
    windows.push({ name: '(b)', from: floodFrom, to: performance.now() - svc.spawnedAt });
    const open = flood.reduce((n, f) => n + f.open(), 0);
    flood.forEach((f) => f.release());
    line(`(b) slow-client flood (${asked} asked, ${open} held at end)`, health);

    const body = Buffer.from(`{"resourceLogs":[]}${' '.repeat(bodyMiB * 1024 * 1024 - 19)}`);
    const head = `POST /v1/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${svc.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const sent = Promise.all(
      Array.from({ length: bodies }, () =>
        rawRequest(svc.port, head, body).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    const bodiesFrom = performance.now() - svc.spawnedAt;
    const during = await probes(sent);
    windows.push({ name: '(c)', from: bodiesFrom, to: performance.now() - svc.spawnedAt });
    const statuses = await sent;
    const count = (s: number) => statuses.filter((x) => x === s).length;
    line(`(c) ${bodies} × ${bodyMiB} MiB exports (${count(200)} 200, ${count(503)} 503, ${count(0)} failed)`, during);
    console.log(`\nThe process ${svc.alive() ? 'is still running' : 'EXITED'}.`);
    console.log('Targets: /healthz p99 < 100 ms, every probe answered');
    const verdict = (name: string, h: HealthLatency) => console.log(`  ${h.p99 < 100 && h.failed === 0 ? 'PASS' : 'MISS'}  ${name}`);
    verdict('(b) main port', health.main);
    verdict('(b) HEALTH_PORT', health.health);
    verdict('(c) main port', during.main);
    verdict('(c) HEALTH_PORT', during.health);
  } finally {
    clearInterval(sampler);
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (profileDir) {
    console.log(`\nThe service's event loop (--cpu-prof, ${profileDir}): its longest time running JavaScript without a break`);
    for (const w of windows) {
      const s = longestBusyStretch(profileDir, w.from, w.to);
      console.log(`  ${w.name} ${s.ms.toFixed(0)} ms, mostly ${s.mostly}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
