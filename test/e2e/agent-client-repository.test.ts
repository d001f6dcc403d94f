import { execFileSync } from 'node:child_process';

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { connectClient, prepareClient, runClient } from '../support/agent-client-runs.js';
import { AGENT_CLIENTS, installAgentClient, type AgentClientName, type Installed } from '../support/agent-clients.js';
import { startModelProvider } from '../support/model-provider-test-double.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

/**
 * Each real agent client, connected by `orgctl login` and `orgctl connect` as a person does, started
 * in a git checkout whose remote is `github.com/acme/CLIENT`: its SessionStart hook (`orgctl guard
 * repository`) records the session's repository under the id the hook is given, so the session's
 * usage, which arrives through the client's own OpenTelemetry export (which names no repository),
 * shows under that repository in `GET /api/v1/analytics/repositories`: the hook's session id and the
 * telemetry's are the same. The model provider is the test double; the service's clock runs a day
 * ahead (clock-a-day-ahead.mjs), since the analytics report closed days only.
 */
const DAY = new Date().toISOString().slice(0, 10);
const USAGE = { input: 1200, output: 300, cacheRead: 500, cacheWrite: 40 };
const COMMAND = 'echo orgctl-repository-test';
const PROMPT = `Run the shell command \`${COMMAND}\`, then say done.`;
const PRELOAD = fileURLToPath(new URL('../support/clock-a-day-ahead.mjs', import.meta.url));
const NO_REGISTRY = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|registry/i;
const CLIENTS = Object.keys(AGENT_CLIENTS) as AgentClientName[];
const emailOf = (name: AgentClientName) => `${name}@acme.test`;

let server: Server;
let ownerKey: string;
let dir: string;

beforeAll(async () => {
  dir = tempDir('orgctl-agent-repository-');
  const installed = await orgInstallation(CLIENTS.map((name) => ({ email: emailOf(name), key: false })));
  ownerKey = installed.ownerKey;
  server = await startServer({ ...installed.env, ANALYTICS_CACHE_MB: '0', NODE_OPTIONS: `--import=${PRELOAD}` });
  onCleanup(() => server.stop());
}, 120_000);

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
const repository = async (repo: string) =>
  (await api<{ data: Row[] }>('GET', `/api/v1/analytics/repositories?startDate=${DAY}&endDate=${DAY}&repository=${encodeURIComponent(repo)}`, ownerKey)).data;

/** Polls until `done` holds (the client's last export may still be on its way), at most 20 s. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.each(CLIENTS)('%s, the real client, started in a git checkout through orgctl connect', (name) => {
  let installed: Installed;
  beforeAll(() => {
    installed = installAgentClient(name);
  }, 300_000);

  it("has the session's usage show under the checkout's repository", async (ctx) => {
    if (!installed.ok) {
      if (NO_REGISTRY.test(installed.reason)) ctx.skip(`${name} could not be installed from the npm registry: ${installed.reason}`);
      throw new Error(installed.reason);
    }
    const key = (await api<{ key: string }>('POST', '/api/v0/api-keys', ownerKey, { email: emailOf(name), name: 'laptop' })).key;
    const stub = await startModelProvider({ usage: USAGE, command: COMMAND, text: 'done' });
    onCleanup(() => stub.close());
    const home = path.join(dir, name);
    const command = prepareClient(name, { home, modelUrl: stub.url, orgctlUrl: server.url, key, connected: true }, PROMPT);
    // The client runs in HOME/work: a checkout on branch `feature` whose remote carries credentials, which never reach the service.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@acme.test', ...args], { cwd: command.cwd }).toString();
    git('init', '-q', '-b', 'feature');
    git('remote', 'add', 'origin', `https://mia:token@github.com/Acme/${name}.git`);
    git('commit', '-q', '--allow-empty', '-m', 'first');
    await connectClient(name, home, server.url, key);

    const run = await runClient(installed.bin, command);
    const said = `${name} ${installed.version} exited ${run.code} after ${Math.round(run.ms)} ms:\n${run.stdout}\n${run.stderr}`;
    expect(run.timedOut, said).toBe(false);
    expect(run.code, said).toBe(0);
    expect(
      stub.requests.filter((r) => r.answered === 'tool'),
      said,
    ).toHaveLength(1);
    const reported = stub.reported();

    // Droid's exec exports no token counts: its session and its tool call stand for its usage.
    const tokens = name !== 'droid';
    const repo = `github.com/acme/${name}`;
    const rows = await eventually(
      () => repository(repo),
      (r) => (r[0]?.tool_calls ?? 0) >= 1 && (!tokens || (r[0]?.output_tokens ?? 0) >= reported.output),
    );
    expect(rows, said).toEqual([
      expect.objectContaining({ repository: repo, sessions: 1, active_people: 1, tool_calls: 1, ...(tokens ? { output_tokens: reported.output } : {}) }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('token@');
  }, 180_000);
});
