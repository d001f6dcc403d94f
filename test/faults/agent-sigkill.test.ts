import { existsSync, readFileSync, rmSync } from 'node:fs';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGitRepo, nodeProject, startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { waitFor } from '../helpers/wait.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

type Computer = { id: string; provisioningSteps: { id: string; status: string; installSessionId?: string }[] };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a host agent killed with SIGKILL during an install', () => {
  it('the next agent on that workdir ends the install it left running before taking work, and the retried install runs alone', async () => {
    const root = tempDir('orgctl-agent-kill-');
    const env = { ...(await installation()), CI_ALLOW_PRIVATE_NETWORK: 'true', COMPUTERS_LEASE_MS: '2000', COMPUTERS_ENGINE_TICK_MS: '100' };
    const server = await startServer(env);
    // Stopped after the test, before installation's cleanup removes the data directory it writes to.
    onCleanup(async () => void (await server.stop()));
    const key = /Owner API key[^:]*: (ock_\w+)/.exec(server.output())![1]!;
    const api = async <T>(method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };

    // The install writes its pid, then takes a minute; a second one running beside it would log twice.
    const pidFile = path.join(root, 'install.pid');
    const script = `node -e "const fs=require('fs');fs.writeFileSync('${pidFile}', String(process.pid));fs.appendFileSync('${path.join(root, 'starts.log')}', 'x');setTimeout(()=>{},60000)"`;
    const repo = makeGitRepo(path.join(root, 'repo'), nodeProject('slow', script));
    const created = await api<Computer>('POST', '/api/v0/computers', { name: 'kill-box', repos: [repo] });
    expect(created.status).toBe(201);
    const workdir = path.join(root, 'work');
    const first: AgentProcess = startAgent({ url: server.url, key, computer: 'kill-box', workdir });
    onCleanup(() => first.stop('SIGKILL'));
    const installPid = await waitFor(
      async () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined),
      60_000,
      'the install to start',
      100,
    );
    expect(alive(installPid)).toBe(true);

    await first.stop('SIGKILL');
    // Without an agent nobody ends it: it lives on in its own process group.
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(installPid)).toBe(true);

    const second = startAgent({ url: server.url, key, computer: 'kill-box', workdir });
    onCleanup(() => second.stop('SIGKILL'));
    // The agent logs what it ended once the group is gone.
    await waitFor(
      async () => (/ended what a previous agent left running in .*\(process group \d+/.test(second.output()) ? true : undefined),
      15_000,
      'the agent to end the leftover install',
      100,
    );
    expect(alive(installPid)).toBe(false);

    // The lost step fails by its lease; a new install runs, once, with no other beside it.
    await waitFor(
      async () => ((await api<Computer>('GET', `/api/v0/computers/${created.body.id}`)).body.provisioningSteps.at(-1)!.status === 'failed' ? true : undefined),
      30_000,
      'the lost install to fail',
      200,
    );
    rmSync(pidFile, { force: true });
    expect((await api('POST', `/api/v0/computers/${created.body.id}/install-deps`)).status).toBe(202);
    const again = await waitFor(async () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined), 60_000, 'the new install to start', 100);
    expect(again).not.toBe(installPid);
    expect(readFileSync(path.join(root, 'starts.log'), 'utf8')).toBe('xx');
    await second.stop('SIGTERM');
    await waitFor(async () => (alive(again) ? undefined : true), 10_000, 'a stopped agent to end its install', 100);
  }, 180_000);
});
