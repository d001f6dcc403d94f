import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareClient, runClient } from '../support/agent-client-runs.js';
import { installAgentClient, type AgentClientName } from '../support/agent-clients.js';
import { startModelProvider } from '../support/model-provider-test-double.js';

/**
 * How the real clients run command hooks in a non-interactive run, and how a hook blocks: what
 * `orgctl guard` relies on (docs/otlp.md's clients, ../shared/spec/agent-clients.md). The hook
 * here is a stand-in shell script that notes its event and blocks (exit 2, the reason on stderr)
 * at one event. Claude Code, Codex and Gemini CLI block the prompt before it reaches the model;
 * Droid's `exec` runs no prompt hook and does not stop at SessionStart, so it blocks tools.
 */
const NO_REGISTRY = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|registry/i;
const REASON = 'orgctl test: allowance spent';
const SECRET = 'PROMPT-THAT-MUST-NOT-LEAVE';

let dir: string;
let sink: Server;
let sinkUrl: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'orgctl-agent-hooks-'));
  // The clients' telemetry goes somewhere that answers, so that none waits on retries at exit.
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{}'));
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => sink.close(r));
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  /** The events hooked; the hook blocks at `blockAt`. */
  events: string[];
  blockAt: string;
  /** The events whose hook ran, in order. */
  ran: string[];
  /** Whether the prompt reached the model. */
  promptReachesModel: boolean;
  /** Where the client shows the reason, if it does. */
  shows?: (out: { stdout: string; stderr: string }) => string;
}

const CASES: Record<AgentClientName, Case> = {
  'claude-code': {
    events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'SessionEnd'],
    blockAt: 'UserPromptSubmit',
    ran: ['SessionStart', 'UserPromptSubmit', 'SessionEnd'],
    promptReachesModel: false,
    shows: (o) => o.stdout,
  },
  // Codex shows only "hook: UserPromptSubmit Blocked", not the reason.
  codex: {
    events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'SessionEnd'],
    blockAt: 'UserPromptSubmit',
    ran: ['SessionStart', 'UserPromptSubmit', 'SessionEnd'],
    promptReachesModel: false,
  },
  'gemini-cli': {
    events: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'SessionEnd'],
    blockAt: 'BeforeAgent',
    ran: ['SessionStart', 'BeforeAgent', 'SessionEnd'],
    promptReachesModel: false,
    shows: (o) => o.stderr + o.stdout,
  },
  // SessionStart's exit 2 does not stop `droid exec`, and UserPromptSubmit does not run in it:
  // the prompt reaches the model, and PreToolUse blocks the tool, the reason going to the model.
  droid: {
    events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse'],
    blockAt: 'PreToolUse',
    ran: ['SessionStart', 'PreToolUse'],
    promptReachesModel: true,
  },
};

describe.each(Object.keys(CASES) as AgentClientName[])('%s, the real client, with command hooks', (name) => {
  it('runs them non-interactively, and a hook that exits 2 blocks', async (ctx) => {
    const installed = installAgentClient(name);
    if (!installed.ok) {
      if (NO_REGISTRY.test(installed.reason)) ctx.skip(`${name} could not be installed from the npm registry: ${installed.reason}`);
      throw new Error(installed.reason);
    }
    const c = CASES[name];
    const home = path.join(dir, name);
    const log = path.join(home, 'hooks.log');
    const marker = path.join(home, 'command-ran');
    const hook = path.join(dir, `${name}-hook.sh`);
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\necho "$1" >> "${log}"\nif [ "$1" = "${c.blockAt}" ]; then echo "${REASON}" >&2; exit 2; fi\nexit 0\n`);
    chmodSync(hook, 0o755);
    const stub = await startModelProvider({ command: `touch ${marker}`, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } });
    try {
      const hooks = Object.fromEntries(c.events.map((e) => [e, `${hook} ${e}`]));
      const command = prepareClient(name, { home, modelUrl: stub.url, orgctlUrl: sinkUrl, key: 'ock_unused', hooks }, `${SECRET}: run the command`);
      const run = await runClient(installed.bin, command);
      const said = `${name} ${installed.version} exited ${run.code} after ${Math.round(run.ms)} ms:\n${run.stdout}\n${run.stderr}`;
      expect(run.timedOut, said).toBe(false);
      expect(run.code, said).toBe(0);
      const ran = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
      expect(ran, said).toEqual(c.ran);
      expect(stub.received(SECRET), said).toBe(c.promptReachesModel);
      // The command never ran: blocked with the prompt, or as a tool.
      expect(existsSync(marker), said).toBe(false);
      if (c.promptReachesModel) {
        // The model was told why: the tool's result carries the hook's reason.
        expect(JSON.stringify(stub.requests.at(-1)?.body), said).toContain(REASON);
      } else
        expect(
          stub.requests.filter((r) => r.usage),
          said,
        ).toEqual([]);
      if (c.shows) expect(c.shows(run), said).toContain(REASON);
    } finally {
      await stub.close();
    }
  }, 120_000);
});
