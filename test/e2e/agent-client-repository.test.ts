import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { fileInstallation } from '../helpers/installation.js';
import { connectClient, prepareClient, runClient } from '../support/agent-client-runs.js';
import { installAgentClient, type Installed } from '../support/agent-clients.js';
import { startModelProvider } from '../support/model-provider-test-double.js';

/**
 * The real Claude Code, connected by `orgctl login` and `orgctl connect` as a person does, started
 * in a git checkout whose remote is `github.com/acme/widgets`: its SessionStart hook (`orgctl guard
 * repository`) records the session's repository, so the session's usage, which arrives through its
 * own OpenTelemetry export (which names no repository), shows under that repository in
 * `GET /api/v1/analytics/repositories`. The model provider is the test double; the service's clock
 * runs a day ahead (clock-a-day-ahead.mjs), since the analytics report closed days only.
 */
const DAY = new Date().toISOString().slice(0, 10);
const USAGE = { input: 1200, output: 300, cacheRead: 500, cacheWrite: 40 };
const PRELOAD = fileURLToPath(new URL('../support/clock-a-day-ahead.mjs', import.meta.url));
const NO_REGISTRY = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|registry/i;
const EMAIL = 'mia@acme.test';

let server: Server;
let ownerKey: string;
let dir: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'orgctl-agent-repository-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const installed = await fileInstallation(dir);
  cleanups.push(installed.remove);
  ownerKey = installed.ownerKey;
  expect((await runCli(['users', 'add', '--email', EMAIL, '--role', 'member'], installed.env)).code).toBe(0);
  server = await startServer({ ...installed.env, ANALYTICS_CACHE_MB: '0', NODE_OPTIONS: `--import=${PRELOAD}` });
  cleanups.push(() => server.stop());
}, 120_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function api<T>(method: string, url: string, key: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

type Row = { repository: string; sessions: number; active_people: number; input_tokens: number; output_tokens: number; tool_calls: number };
const repositories = async () => (await api<{ data: Row[] }>('GET', `/api/v1/analytics/repositories?startDate=${DAY}&endDate=${DAY}`, ownerKey)).data;

/** Polls until `done` holds (the client's last export may still be on its way), at most 20 s. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('Claude Code, the real client, started in a git checkout through orgctl connect', () => {
  let installed: Installed;
  beforeAll(() => {
    installed = installAgentClient('claude-code');
  }, 300_000);

  it("has the session's usage show under the checkout's repository", async (ctx) => {
    if (!installed.ok) {
      if (NO_REGISTRY.test(installed.reason)) ctx.skip(`claude-code could not be installed from the npm registry: ${installed.reason}`);
      throw new Error(installed.reason);
    }
    const key = (await api<{ key: string }>('POST', '/api/v0/api-keys', ownerKey, { email: EMAIL, name: 'laptop' })).key;
    const stub = await startModelProvider({ usage: USAGE, text: 'done' });
    cleanups.push(() => stub.close());
    const home = path.join(dir, 'home');
    const command = prepareClient('claude-code', { home, modelUrl: stub.url, orgctlUrl: server.url, key, connected: true }, 'Say done.');
    // The client runs in HOME/work: a checkout on branch `feature` whose remote carries credentials, which never reach the service.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@acme.test', ...args], { cwd: command.cwd }).toString();
    git('init', '-q', '-b', 'feature');
    git('remote', 'add', 'origin', 'https://mia:token@github.com/Acme/Widgets.git');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    await connectClient('claude-code', home, server.url, key);

    const run = await runClient(installed.bin, command);
    const said = `claude-code ${installed.version} exited ${run.code} after ${Math.round(run.ms)} ms:\n${run.stdout}\n${run.stderr}`;
    expect(run.timedOut, said).toBe(false);
    expect(run.code, said).toBe(0);
    const reported = stub.reported();
    expect(reported.output, said).toBeGreaterThan(0);

    const rows = await eventually(repositories, (r) => (r[0]?.output_tokens ?? 0) >= reported.output);
    expect(rows, said).toEqual([
      expect.objectContaining({
        repository: 'github.com/acme/widgets',
        sessions: 1,
        active_people: 1,
        input_tokens: reported.input,
        output_tokens: reported.output,
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('token@');
  }, 180_000);
});
