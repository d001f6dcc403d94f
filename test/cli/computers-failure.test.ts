import { spawn } from 'node:child_process';

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { MAIN, runCli, startServer, type CliResult, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// A computer whose clone fails, as orgctl's user meets it: `computers create --follow`, the host
// agent's log and `computers get`, each a real process against a real service.

let root: string;
let server: Server;
let env: Record<string, string>;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  root = tempDir('orgctl-cli-computers-');
  const installed = await orgInstallation();
  server = await startServer({ ...installed.env, COMPUTERS_ENGINE_TICK_MS: '100' });
  onCleanup(() => server.stop());
  env = { XDG_CONFIG_HOME: path.join(root, 'config'), ORGCTL_URL: server.url, ORGCTL_API_KEY: installed.ownerKey };
}, 180_000);
afterAll(async () => {
  for (const a of agents) await a.stop('SIGKILL');
});

/** The CLI running, its stderr readable while it runs. */
function running(args: string[]) {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: 0 })));
  const saw = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stderr.includes(text)) return resolve();
        if (child.exitCode !== null) return reject(new Error(`exited without printing ${text}:\n${stderr}`));
        setTimeout(check, 50);
      };
      check();
    });
  return { exited, saw };
}

describe('a computer whose clone fails', () => {
  const repo = 'https://nowhere.invalid/acme/web.git';

  it('create --follow ends with exit 1 and the reason; the install behind the clone is settled, skipped with why', async () => {
    const follow = running(['computers', 'create', 'broken', '--repo', repo, '--follow', '--timeout', '40']);
    await follow.saw('Waiting for the host agent');
    const agent = startAgent({ url: server.url, key: env.ORGCTL_API_KEY!, computer: 'broken', workdir: path.join(root, 'agent') });
    agents.push(agent);
    const done = await follow.exited;
    // Before: the install stayed pending behind the failed clone, and the follow waited to --timeout (exit 4).
    expect(done.stderr).not.toContain('still provisioning');
    expect(done.stderr).toMatch(/Clone the repositories \(clone-repos\): failed - git clone https:\/\/nowhere\.invalid\/acme\/web\.git exited with code 128/);
    expect(done.stderr).toContain('Install dependencies (install-dependencies): skipped - Not run: the step Clone the repositories (clone-repos) failed.');
    expect(done.stderr).toMatch(/broken failed at Clone the repositories \(clone-repos\): fatal: .*Could not resolve host: nowhere\.invalid\n$/);
    expect(done.code).toBe(1);

    // computers get shows the reason, not only the first line of the message.
    const get = await runCli(['computers', 'get', 'broken'], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^status\s+error$/m);
    expect(get.stdout).toMatch(
      /failed\s+Clone the repositories \(clone-repos\): git clone .* exited with code 128:\n(.*\n)*\s+fatal: .*Could not resolve host: nowhere\.invalid/,
    );
    expect(get.stdout).toMatch(/skipped\s+Install dependencies \(install-dependencies\): Not run: the step Clone the repositories \(clone-repos\) failed\./);

    // So does the host agent's log line for the step.
    await waitForOutput(agent, 'Could not resolve host');
    expect(agent.output()).toMatch(/clone-repos failed: git clone .* exited with code 128: .*Could not resolve host: nowhere\.invalid/);
  }, 120_000);
});

async function waitForOutput(agent: AgentProcess, text: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!agent.output().includes(text) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}
