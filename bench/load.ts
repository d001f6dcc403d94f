import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { percentile } from '../test/helpers/slow-clients.js';
import type { ProbeOptions } from './health-probe-thread.js';

const require = createRequire(import.meta.url);
const AUTOCANNON = require.resolve('autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon in its own process against `url`, so the load generator never shares our event loop. */
export function load(url: string, options: { seconds: number; connections: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-d', String(options.seconds), '-c', String(options.connections)];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out);
      resolve({ requestsPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export interface HealthLatency {
  probes: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * `/healthz` latency while `work` runs: a probe on a new connection every `everyMs` from `from` (a
 * loopback address of its own, as a load balancer's health check comes from its own address), sent
 * from a thread of its own (bench/health-probe-thread.ts).
 */
export async function healthDuring(port: number, work: Promise<unknown>, options: { everyMs?: number; from?: string } = {}): Promise<HealthLatency> {
  const workerData: ProbeOptions = { port, everyMs: options.everyMs ?? 20, from: options.from ?? '127.0.0.2' };
  const prober = new Worker(new URL('./health-probe-thread.js', import.meta.url), { workerData });
  try {
    await once(prober, 'message');
    await work.catch(() => undefined);
    prober.postMessage('stop');
    const [{ ms, failed }] = (await once(prober, 'message')) as [{ ms: number[]; failed: number }];
    return { probes: ms.length + failed, failed, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.length ? Math.max(...ms) : NaN };
  } finally {
    await prober.terminate();
  }
}

export const fmtHealth = (h: HealthLatency) =>
  `/healthz p50 ${fmt(h.p50, 1).padStart(6)} ms  p99 ${fmt(h.p99, 1).padStart(6)} ms  max ${fmt(h.max, 1).padStart(6)} ms  (${h.probes} probes${h.failed ? `, ${h.failed} unanswered` : ''})`;
