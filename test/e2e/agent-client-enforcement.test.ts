import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { tcpRelay } from '../helpers/tcp-relay.js';
import { connectClient, prepareClient, runClient, type ClientCommand } from '../support/agent-client-runs.js';
import { AGENT_CLIENTS, installAgentClient, type AgentClientName, type Installed } from '../support/agent-clients.js';
import { startModelProvider, type ModelProvider } from '../support/model-provider-test-double.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

/**
 * Usage limits holding inside the real agent clients: each is connected by `orgctl connect` (after
 * `orgctl login`) in a home of its own, so its hooks run `orgctl guard`. With the person's
 * allowance spent, the prompt never reaches the model (Droid, whose `exec` runs no prompt hook,
 * has its tool call refused instead); with the limit removed it does; with orgctl unreachable the
 * default policy (`open`) lets it through, and under the policy `closed` it is blocked. A warning
 * at a threshold is shown once by the clients that show a hook's message in a non-interactive run
 * (Claude Code, Gemini CLI); Codex and Droid show it only interactively, so for them the guard's own
 * process tests (test/cli/guard*.test.ts) prove what it says.
 */
const NO_REGISTRY = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|registry/i;
const COMMAND = 'echo orgctl-enforcement-test';
const BLOCKED = 'usage limit reached';
const PROMPT = '(the prompt)';
const WARNED = '80% of your usage limit used: 1.2M of 1.4M credits (individual limit)';

/**
 * The run as it shows a hook's message: Claude Code prints it in its stream of events
 * (`--output-format stream-json --verbose`, a `system` event "UserPromptSubmit says: …"); Gemini
 * CLI prints "Hook system message: …" on stderr as it is.
 */
const visible = (c: ClientCommand): ClientCommand =>
  c.args.includes('--output-format') ? { ...c, args: [...c.args.map((a) => (a === 'json' ? 'stream-json' : a)), '--verbose'] } : c;

let server: Server;
let ownerKey: string;
let env: Record<string, string>;
let dir: string;
let model: ModelProvider;

beforeAll(async () => {
  dir = tempDir('orgctl-enforcement-');
  const installed = await orgInstallation(Object.keys(AGENT_CLIENTS).map((name) => ({ email: `${name}@acme.test`, key: false })));
  env = installed.env;
  ownerKey = installed.ownerKey;
  server = await startServer({ ...env, ANALYTICS_CACHE_MB: '0' });
  onCleanup(() => server.stop());
  model = await startModelProvider({ command: COMMAND });
  onCleanup(() => model.close());
}, 120_000);

async function api(method: string, url: string, body?: unknown, key = ownerKey): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/** 1.2 million credits of model requests a minute ago (claude-sonnet-4-5, 1.2 credits an input token), sent natively. */
async function spend(key: string, id: string): Promise<void> {
  const event = {
    id,
    type: 'model_request',
    timestamp: Date.now() - 60_000,
    sessionId: id,
    client: 'terminal-ui',
    model: 'claude-sonnet-4-5',
    tier: 'standard',
  };
  await api(
    'POST',
    '/api/v1/telemetry/events',
    { events: [{ ...event, inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }] },
    key,
  );
}

/**
 * Runs the client with a prompt that asks for the tool. The guard's cached allowance is dropped
 * first, so it asks orgctl; with `aged`, it is kept but made older than its 30 s instead, so the
 * guard asks orgctl and, finding it unreachable, has the policy it last saw.
 */
async function run(bin: string, home: string, command: ClientCommand, o: { aged?: boolean } = {}) {
  const cache = path.join(home, '.cache', 'orgctl', 'guard');
  if (!o.aged) rmSync(cache, { recursive: true, force: true });
  else
    for (const name of readdirSync(cache)) {
      const cached = JSON.parse(readFileSync(path.join(cache, name), 'utf8')) as { fetchedAt: number };
      writeFileSync(path.join(cache, name), JSON.stringify({ ...cached, fetchedAt: cached.fetchedAt - 60_000 }));
    }
  const result = await runClient(bin, command, 90_000);
  expect(result.timedOut, `${result.stdout}\n${result.stderr}`).toBe(false);
  return result;
}

describe.each(Object.keys(AGENT_CLIENTS) as AgentClientName[])('%s connected by orgctl connect obeys the usage limit', (name) => {
  let installed: Installed;
  let home: string;
  let key: string;
  let command: ClientCommand;
  const email = `${name}@acme.test`;

  beforeAll(async () => {
    installed = installAgentClient(name);
    if (!installed.ok && !NO_REGISTRY.test(installed.reason)) throw new Error(installed.reason);
    home = mkdtempSync(path.join(dir, `${name}-`));
    key = (await api('POST', '/api/v0/api-keys', { name: 'laptop', email })).key as string;
    // The model provider settings are the test's; connect then merges telemetry and hooks into them.
    command = prepareClient(name, { home, modelUrl: model.url, orgctlUrl: server.url, key, connected: true }, PROMPT);
    await connectClient(name, home, server.url, key);
  }, 180_000);

  const withPrompt = (prompt: string, extraEnv: Record<string, string> = {}): ClientCommand => ({
    ...command,
    env: { ...command.env, ...extraEnv },
    args: command.args.map((a) => (a === PROMPT ? prompt : a)),
  });

  it('blocks at a spent allowance before the model sees the prompt (Droid: refuses the tool), and lets it through once the limit is removed', async (ctx) => {
    if (!installed.ok) ctx.skip();
    const bin = (installed as { bin: string }).bin;
    await spend(key, `${name}-spend`);
    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: 1_000_000 }] });

    const blocked = `blocked prompt of ${name}: run \`${COMMAND}\``;
    const out = await run(bin, home, withPrompt(blocked));
    if (name === 'droid') {
      // The prompt reaches the model (no prompt hook in exec); the tool call it asks for is refused with the reason.
      expect(model.received(blocked)).toBe(true);
      expect(model.received(BLOCKED)).toBe(true);
    } else {
      expect(model.received(blocked)).toBe(false);
      if (name === 'claude-code') expect(out.stdout).toContain(BLOCKED);
      if (name === 'gemini-cli') expect(out.stderr + out.stdout).toContain(BLOCKED);
    }

    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: null }] });
    const allowed = `allowed prompt of ${name}: run \`${COMMAND}\``;
    await run(bin, home, withPrompt(allowed));
    expect(model.received(allowed)).toBe(true);
  }, 240_000);

  it('warns once at a threshold and lets the prompt through (shown by Claude Code and Gemini CLI; Codex and Droid show no hook message when run non-interactively)', async (ctx) => {
    if (!installed.ok) ctx.skip();
    const bin = (installed as { bin: string }).bin;
    // The 1.2 million credits spent above, of a 1.4 million limit: 85.7 %, past the 80 % threshold.
    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: 1_400_000 }] });
    const shown = async (prompt: string) => {
      const out = await run(bin, home, visible(withPrompt(prompt)));
      expect(model.received(prompt)).toBe(true);
      return out.stdout + out.stderr;
    };
    const first = await shown(`first prompt past 80 % of ${name}`);
    const again = await shown(`second prompt past 80 % of ${name}`);
    if (name === 'claude-code' || name === 'gemini-cli') {
      expect(first).toContain(WARNED);
      expect(again).not.toContain(WARNED);
    }
    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: null }] });
  }, 240_000);

  it('with orgctl unreachable, the default policy (open) lets the prompt through', async (ctx) => {
    if (!installed.ok) ctx.skip();
    const bin = (installed as { bin: string }).bin;
    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: 1_000_000 }] });
    // The hook is pointed at an address where nothing listens (ORGCTL_URL wins over the login); telemetry still goes to orgctl.
    const prompt = `unreachable prompt of ${name}: run \`${COMMAND}\``;
    await run(bin, home, withPrompt(prompt, { ORGCTL_URL: 'http://127.0.0.1:9' }));
    expect(model.received(prompt)).toBe(true);
    await api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email, limit: null }] });
  }, 240_000);

  it('under the policy unreachable: closed, an orgctl that stopped answering blocks the prompt (Droid: the tool call)', async (ctx) => {
    if (!installed.ok) ctx.skip();
    const bin = (installed as { bin: string }).bin;
    const policy = { mode: 'block', thresholds: [80, 95], unreachable: 'closed' };
    await api('PUT', '/api/v0/organization/usage/enforcement', policy);
    const relay = tcpRelay(new URL(server.url));
    const through = (await relay.listen()).toString().replace(/\/$/, '');
    try {
      // Reachable: allowed (no limit), and the hook keeps the policy it saw.
      const first = `reachable prompt of ${name}: run \`${COMMAND}\``;
      await run(bin, home, withPrompt(first, { ORGCTL_URL: through }));
      expect(model.received(first)).toBe(true);
      relay.drop();
      const cut = `cut-off prompt of ${name}: run \`${COMMAND}\``;
      await run(bin, home, withPrompt(cut, { ORGCTL_URL: through }), { aged: true });
      if (name === 'droid') expect(model.received('cannot reach')).toBe(true);
      else expect(model.received(cut)).toBe(false);
    } finally {
      await relay.close();
      await api('PUT', '/api/v0/organization/usage/enforcement', { ...policy, unreachable: 'open' });
    }
  }, 240_000);
});
