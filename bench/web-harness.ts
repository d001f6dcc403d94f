/**
 * What the browser benchmarks and the screenshot script share: the CLI and `orgctl serve` as real
 * processes on a data directory (or the database of DATABASE_URL), Debian's Chromium, a session
 * signed in through an invitation, and a stopwatch over a navigation.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Cookie, type Page } from 'playwright-core';

export const MAIN = path.resolve('dist/main.js');
export const PASSWORD = 'bench password 123';
const SETUP_TOKEN = 'bench-web-setup-token';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Where the service keeps its data: the database of DATABASE_URL, or a data directory (kept when `keep` names it). */
export function serviceStorage(keep?: string): { env: NodeJS.ProcessEnv; engine: string; remove: () => void } {
  if (process.env.DATABASE_URL) return { env: { DATABASE_URL: process.env.DATABASE_URL }, engine: 'PostgreSQL', remove: () => undefined };
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'orgctl-bench-web-'));
  return { env: { DATA_DIR: dir, DATABASE_URL: '' }, engine: 'PGlite', remove: () => (keep ? undefined : rmSync(dir, { recursive: true, force: true })) };
}

/** `orgctl ARGS`, its standard output; a failure ends the run with the CLI's own words. */
export function cli(args: string[], env: NodeJS.ProcessEnv): string {
  const res = spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`orgctl ${args.join(' ')} failed: ${res.stderr.slice(0, 500)}`);
  return res.stdout;
}

export interface Service {
  url: string;
  stop(): Promise<void>;
}

/** `orgctl serve` on a free port, without rate limits (a benchmark signs in and reads far more than a person). */
export async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', RATE_LIMITS: 'false', ORGCTL_SETUP_TOKEN: SETUP_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  for (let i = 0; i < 600 && !/listening on (\S+)/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /listening on (\S+)/.exec(out)?.[1];
  if (!url) {
    child.kill('SIGKILL');
    throw new Error(`the service did not start:\n${out}`);
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export function launchChromium(): Promise<Browser> {
  // As root (containers, CI) Chromium refuses to start with its sandbox.
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * An invitation for somebody new with `role`, made before the service starts (a PGlite data
 * directory has one process at a time). Sign-ins are limited per account (docs/web-app.md), so
 * each run signs in once, as somebody invited for that run.
 */
export function invite(env: NodeJS.ProcessEnv, role: 'owner' | 'manager' | 'member', email = `${role}-${Date.now()}@bench.test`): string {
  const { url } = JSON.parse(cli(['users', 'invite', '--email', email, '--role', role, '--json'], env)) as { url: string };
  return url.split('/invite/')[1]!;
}

/** The cookies of the session that accepting the invitation `token` opens. */
export async function acceptInvitation(browser: Browser, service: Service, token: string, name: string): Promise<Cookie[]> {
  const context = await browser.newContext();
  try {
    const accepted = await context.request.post(`${service.url}/api/v0/invitations/accept`, {
      data: { token, password: PASSWORD, name },
      headers: { origin: service.url, 'sec-fetch-site': 'same-origin' },
    });
    if (!accepted.ok()) throw new Error(`accepting the invitation answered ${accepted.status()}: ${await accepted.text()}`);
    return (await context.storageState()).cookies;
  } finally {
    await context.close();
  }
}

/** A page in a fresh context: an empty cache, with the cookies of a session (or none). */
export async function freshPage(browser: Browser, cookies: Cookie[], viewport = { width: 1400, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, storageState: { cookies, origins: [] } });
  return context.newPage();
}

/** Milliseconds from `action` to the moment `ready` resolves (locators: the page's CSP allows no evaluated strings). */
export async function timed(action: () => Promise<unknown>, ready: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await action();
  await ready();
  return performance.now() - t0;
}
