/**
 * bench:responsiveness — does the service stay responsive while it works hard? A real `orgctl serve`
 * process (with --demo data), and from this process: 4 clients ingesting 1000-event batches as
 * fast as the service takes them, and 1 reading a year of /api/v1/analytics/users page by page.
 * Meanwhile a prober calls /healthz and /api/v0/me one after the other; their latencies are
 * printed for an unloaded phase (the baseline, same run) and the loaded one, with the ratio.
 * Target: loaded p99 of both under 100 ms.
 *
 *   npm run bench:responsiveness [-- --seconds 20]       embedded database (a temp data directory)
 *   DATABASE_URL=postgres://… npm run bench:responsiveness   PostgreSQL (an empty database)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays } from '../src/core/days.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '15' } } });
const SECONDS = Number(values.seconds);
const MAIN = path.resolve('dist/main.js');

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};

async function startService(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [MAIN, 'serve', '--demo'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMITS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 600 && !out.includes('API description'); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /listening on (\S+)/.exec(out)?.[1];
  const key = /Owner API key[^:]*: (ock_\w+)/.exec(out)?.[1];
  const days = /from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(out);
  if (!url || !key || !days) throw new Error(`the service did not start:\n${out}`);
  return { child, url, key, lastDay: days[2]! };
}

async function probe(base: string, key: string, until: () => boolean) {
  const times: Record<'healthz' | 'me', number[]> = { healthz: [], me: [] };
  while (!until()) {
    for (const [name, pathname] of [
      ['healthz', '/healthz'],
      ['me', '/api/v0/me'],
    ] as const) {
      const t0 = performance.now();
      const res = await fetch(`${base}${pathname}`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`);
      times[name].push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

async function main() {
  const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'orgctl-bench-load-'));
  const service = await startService(dir ? { DATA_DIR: dir, DATABASE_URL: '' } : {});
  const { url, key } = service;
  let stop = false;
  const done = () => stop;
  try {
    const baseline = probe(url, key, done);
    await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
    stop = true;
    const unloaded = await baseline;

    stop = false;
    let batches = 0;
    let reads = 0;
    const day = new Date(`${service.lastDay}T12:00:00Z`).getTime();
    const ingest = async (client: number) => {
      for (let n = 0; !stop; n++) {
        const events = Array.from({ length: 1000 }, (_, i) => ({
          id: `load-${client}-${n}-${i}`,
          type: 'tool_call',
          timestamp: day - i * 1000,
          sessionId: `s${client}`,
          client: 'terminal-ui',
          tool: `Tool${i % 20}`,
          autonomyLevel: 'auto-low',
        }));
        const res = await fetch(`${url}/api/v1/telemetry/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ events }),
        });
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`ingestion answered ${res.status}`);
        batches++;
      }
    };
    const start = addDays(service.lastDay, -365);
    const read = async () => {
      while (!stop) {
        let cursor: string | null = null;
        do {
          const res = await fetch(`${url}/api/v1/analytics/users?startDate=${start}&endDate=${service.lastDay}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          const body = (await res.json()) as { meta: { next_cursor: string | null } };
          cursor = body.meta.next_cursor;
          reads++;
        } while (cursor && !stop);
      }
    };
    const work = Promise.all([0, 1, 2, 3].map(ingest).concat(read()));
    const loadedProbe = probe(url, key, done);
    await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
    stop = true;
    const loaded = await loadedProbe;
    await work;

    const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(
      `bench:responsiveness on ${engine}: ${SECONDS / 2} s unloaded, then ${SECONDS / 2} s with 4 ingesting clients (${batches} batches of 1000 events, ${Math.round((batches * 1000) / (SECONDS / 2))} events/s) and 1 reader of a year of /users (${reads} pages)`,
    );
    console.log('endpoint | unloaded p50 | unloaded p99 | loaded p50 | loaded p99 | p99 ratio | target');
    for (const name of ['healthz', 'me'] as const) {
      const u50 = percentile(unloaded[name], 0.5);
      const u99 = percentile(unloaded[name], 0.99);
      const l50 = percentile(loaded[name], 0.5);
      const l99 = percentile(loaded[name], 0.99);
      console.log(
        `${name} | ${u50.toFixed(1)} ms | ${u99.toFixed(1)} ms | ${l50.toFixed(1)} ms | ${l99.toFixed(1)} ms | ${(l99 / u99).toFixed(2)} | ${l99 < 100 ? 'met' : 'MISSED'} (p99 < 100 ms)`,
      );
    }
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((r) => service.child.once('exit', r));
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
