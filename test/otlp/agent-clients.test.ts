import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { connectClient, prepareClient, runClient } from '../support/agent-client-runs.js';
import { AGENT_CLIENTS, installAgentClient, type AgentClientName, type Installed } from '../support/agent-clients.js';
import { startModelProvider, type ModelProvider } from '../support/model-provider-test-double.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

/**
 * The real agent clients (test/support/agent-clients.ts, pinned versions from the npm registry)
 * run a prompt and a shell command against the model provider test double and export their
 * telemetry to a running `orgctl serve` with a person's own key, set up by `orgctl login` and
 * `orgctl connect` as the person would. What lands in the analytics of
 * that day is what the double reported, exactly once, and the session, the tool call and the
 * person. What each client sends is in docs/otlp.md (What feeds which figure).
 *
 * The service's clock runs a day ahead (clock-a-day-ahead.mjs): the analytics report closed days
 * only, and the clients stamp their records with the real time.
 */
const DAY = new Date().toISOString().slice(0, 10);
const COMMAND = 'echo orgctl-agent-client-test';
const PROMPT = `Run the shell command \`${COMMAND}\`, then say done.`;
const USAGE = { input: 1200, output: 300, cacheRead: 500, cacheWrite: 40 };
const PRELOAD = fileURLToPath(new URL('../support/clock-a-day-ahead.mjs', import.meta.url));
/** npm failing for want of the registry skips a client; any other failure fails its test. */
const NO_REGISTRY = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|registry/i;

/**
 * Each client over its own wire protocol with a person's own key; Droid also over Chat
 * Completions, the double's fourth, and with the owner's key (the organization-wide setup), where
 * its `user.email="unknown"` must neither reject nor misattribute its records: they are the owner's.
 */
const RUNS: { name: AgentClientName; label: string; droidProvider?: 'generic-chat-completion-api'; ownersKey?: true }[] = [
  ...(Object.keys(AGENT_CLIENTS) as AgentClientName[]).map((name) => ({ name, label: name })),
  { name: 'droid', label: 'droid over Chat Completions', droidProvider: 'generic-chat-completion-api' },
  { name: 'droid', label: "droid with the owner's key", ownersKey: true },
];

/** The person of a run, one per run; the owner for a run with the owner's key. */
const emailOf = (run: (typeof RUNS)[number]) => (run.ownersKey ? 'owner@acme.test' : `${run.label.replaceAll(' ', '-').toLowerCase()}@acme.test`);

let server: Server;
let ownerKey: string;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  dir = tempDir('orgctl-agent-clients-');
  const installed = await orgInstallation();
  env = installed.env;
  ownerKey = installed.ownerKey;
  // One person per client.
  for (const run of RUNS) if (!run.ownersKey) await addPerson(emailOf(run));
  server = await startServer({ ...env, ANALYTICS_CACHE_MB: '0', NODE_OPTIONS: `--import=${PRELOAD}` });
  onCleanup(() => server.stop());
}, 120_000);

type Row = Record<string, unknown>;
async function get<T>(pathAndQuery: string): Promise<T> {
  const res = await fetch(`${server.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${ownerKey}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}
const range = `startDate=${DAY}&endDate=${DAY}`;
const userRow = async (email: string) => (await get<{ data: Row[] }>(`/api/v1/analytics/users?${range}&limit=100`)).data.find((r) => r.user_email === email);
const tokensOf = async (email: string) =>
  (await get<{ data: { by_user: { user_email: string; by_model: Row[] }[] }[] }>(`/api/v1/analytics/tokens?${range}`)).data[0]?.by_user.find(
    (u) => u.user_email === email,
  );
const toolCalls = async (tool: string) =>
  (await get<{ data: Row[] }>(`/api/v1/analytics/tools?${range}&group_by=tool_name`)).data.find((r) => r.group_key === tool)?.tool_calls;

/** A member of the organization (on the database, before the service holds it). */
async function addPerson(email: string): Promise<void> {
  expect((await runCli(['users', 'add', '--email', email, '--role', 'member'], env)).code).toBe(0);
}

/** A key of the person's own, made by the owner over the API. */
async function keyOf(email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v0/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'agent client' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** Polls `read` until `done` holds of its value (the client's last export may still be on its way), at most 20 s. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface Expected {
  /** The shell tool's name as the client reports it. */
  tool: string;
  /** The user and assistant messages the client reports. */
  messages: { user_messages: number; assistant_messages: number };
  /** The tokens the analytics should show, from what the double reported; undefined: the client sends none. */
  tokens: ((reported: ModelProvider['reported'] extends () => infer U ? U : never) => Row) | undefined;
}

const EXPECTED: Record<AgentClientName, Expected> = {
  'claude-code': {
    tool: 'Bash',
    messages: { user_messages: 1, assistant_messages: 1 },
    tokens: (r) => ({ input_tokens: r.input, output_tokens: r.output, cache_read_tokens: r.cacheRead, cache_write_tokens: r.cacheWrite }),
  },
  // The Responses API reports no cache writes; its input count includes the cached tokens, which count apart.
  codex: {
    tool: 'exec_command',
    messages: { user_messages: 1, assistant_messages: 0 },
    tokens: (r) => ({ input_tokens: r.input, output_tokens: r.output, cache_read_tokens: r.cacheRead, cache_write_tokens: 0 }),
  },
  // Gemini CLI's input count includes the cached tokens: they count as input, its cache reads stay 0.
  'gemini-cli': {
    tool: 'run_shell_command',
    messages: { user_messages: 1, assistant_messages: 0 },
    tokens: (r) => ({ input_tokens: r.input + r.cacheRead, output_tokens: r.output, cache_read_tokens: 0, cache_write_tokens: 0 }),
  },
  // Droid exec exports no token counts and no message spans.
  droid: { tool: 'Execute', messages: { user_messages: 0, assistant_messages: 0 }, tokens: undefined },
};

/** The day's calls of each tool so far: the runs share the organization. */
const toolCallsSoFar = new Map<string, number>();
const sum = (rows: Row[], field: string) => rows.reduce((n, r) => n + (r[field] as number), 0);

describe.each(RUNS)('$label, the real client', (each) => {
  const { name, label, droidProvider } = each;
  let installed: Installed;
  beforeAll(() => {
    installed = installAgentClient(name);
  }, 300_000);

  it(`runs a prompt and a shell command: the day's analytics show the tokens the model reported once, the session, the tool call and the person`, async (ctx) => {
    if (!installed.ok) {
      if (NO_REGISTRY.test(installed.reason)) ctx.skip(`${name} could not be installed from the npm registry: ${installed.reason}`);
      throw new Error(installed.reason);
    }
    const email = emailOf(each);
    const key = each.ownersKey ? ownerKey : await keyOf(email);
    const stub = await startModelProvider({ usage: USAGE, command: COMMAND, text: 'done' });
    onCleanup(() => stub.close());
    const home = path.join(dir, label.replaceAll(/\W+/g, '-'));
    const logged = server.output().length;
    const command = prepareClient(name, { home, modelUrl: stub.url, orgctlUrl: server.url, key, droidProvider, connected: true }, PROMPT);
    await connectClient(name, home, server.url, key);
    const run = await runClient(installed.bin, command);
    const said = `${name} ${installed.version} exited ${run.code} after ${Math.round(run.ms)} ms:\n${run.stdout}\n${run.stderr}`;
    expect(run.timedOut, said).toBe(false);
    expect(run.code, said).toBe(0);
    // The double answered the tool call and then the text: the client ran the command.
    expect(
      stub.requests.filter((r) => r.answered === 'tool'),
      said,
    ).toHaveLength(1);
    expect(
      stub.requests.some((r) => r.answered === 'text'),
      said,
    ).toBe(true);

    const expected = EXPECTED[name];
    const row = await eventually(
      () => userRow(email),
      (r) => r !== undefined && (r.sessions as number) >= 1 && (r.tool_calls as number) >= 1,
    );
    expect(row, said).toMatchObject({ user_email: email, sessions: 1, tool_calls: 1, ...expected.messages });
    toolCallsSoFar.set(expected.tool, (toolCallsSoFar.get(expected.tool) ?? 0) + 1);
    expect(await toolCalls(expected.tool)).toBe(toolCallsSoFar.get(expected.tool));
    // Nothing the client sent was rejected as a record of it that orgctl cannot read.
    expect(server.output().slice(logged)).not.toContain('orgctl does not know how to read');

    const reported = stub.reported();
    if (expected.tokens === undefined) {
      // The client has exited and its exports have been counted (the session and the tool call are in).
      expect(await tokensOf(email)).toBeUndefined();
      return;
    }
    const tokens = await eventually(
      () => tokensOf(email),
      (t) => t !== undefined && sum(t.by_model, 'output_tokens') >= reported.output,
    );
    if (tokens === undefined) throw new Error(`no tokens of ${email} arrived; ${said}`);
    const want = expected.tokens(reported);
    const models = [...new Set(stub.requests.filter((r) => r.usage).map((r) => (r.body as { model?: string }).model ?? /models\/([^:]+):/.exec(r.url)?.[1]))];
    const byModel = tokens.by_model;
    expect(byModel.map((m) => m.model_id).sort()).toEqual(models.sort());
    expect(Object.fromEntries(Object.keys(want).map((k) => [k, sum(byModel, k)]))).toEqual(want);
  }, 120_000);
});
