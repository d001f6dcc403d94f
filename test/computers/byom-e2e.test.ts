import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, nodeProject, startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { waitFor } from '../helpers/wait.js';
import { onCleanup } from '../helpers/cleanup.js';

type Step = { id: string; status: string; error?: string; installSessionId?: string };
type Computer = {
  id: string;
  name: string;
  status: string;
  hostId?: string;
  hostname?: string;
  remoteUser?: string;
  relayClientUrl?: string;
  relayAgentUrl?: string;
  clonedRepoDirectories?: string[];
  provisioningSteps: Step[];
};
type Session = { id: string; status: string; exitCode: number | null; log: string; startedAt: number | null; endedAt: number | null };

const LEASE_MS = 2000;
let root: string;
let server: Server;
let key: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'orgctl-byom-'));
  const env = { ...(await installation()), COMPUTERS_LEASE_MS: String(LEASE_MS), COMPUTERS_ENGINE_TICK_MS: '100' };
  const init = await runCli(['init', '--org', 'byom', '--owner-email', 'owner@byom.test', '--json'], env);
  expect(init.code).toBe(0);
  key = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
  server = await startServer({ ...env, CI_ALLOW_PRIVATE_NETWORK: 'true' });
});
afterEach(async () => {
  for (const a of agents.splice(0)) await a.stop('SIGKILL');
});
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const api = async <T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
};
const get = async (id: string) => (await api<Computer>('GET', `/api/v0/computers/${id}`)).body;
const session = async (id: string, sessionId: string) => (await api<Session>('GET', `/api/v0/computers/${id}/install-sessions/${sessionId}`)).body;
const stepOf = (c: Computer, id: string) => c.provisioningSteps.find((s) => s.id === id) as Step;
const until = (id: string, pred: (c: Computer) => boolean, what: string, timeoutMs = 30_000) =>
  waitFor(
    async () => {
      const c = await get(id);
      return pred(c) ? c : undefined;
    },
    timeoutMs,
    what,
    100,
  );
const agentFor = (computer: string, workdir: string) => {
  const a = startAgent({ url: server.url, key, computer, workdir });
  agents.push(a);
  return a;
};
/** Whether a process runs (a zombie, killed but not yet reaped, does not count). */
const isAlive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('byom end to end: orgctl serve + orgctl agent + git + npm', () => {
  it('create → provisioning → active, with a real git clone and real npm ci output in the logs', async () => {
    const repo = makeGitRepo(path.join(root, 'repos', 'shop'), nodeProject('shop', 'echo preinstall of shop ran'));
    const created = await api<Computer>('POST', '/api/v0/computers', { name: 'laptop', repos: [repo] });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('provisioning');
    const workdir = path.join(root, 'work-laptop');
    const agent = agentFor('laptop', workdir);
    const c = await until(created.body.id, (x) => x.status !== 'provisioning', 'provisioning to end');
    expect(c.status, agent.output()).toBe('active');
    expect(c.provisioningSteps.map((s) => [s.id, s.status])).toEqual([
      ['connect-host', 'succeeded'],
      ['clone-repos', 'succeeded'],
      ['install-dependencies', 'succeeded'],
    ]);
    expect(c.hostId).toBe(readFileSync(path.join(workdir, '.orgctl-host-id'), 'utf8').trim());
    expect(c.hostname).toBe(os.hostname());
    expect(c.remoteUser).toBe(os.userInfo().username);
    expect(c.relayAgentUrl).toBe(`${server.url}/api/v0/computers/${c.id}/agent`);
    expect(c.relayClientUrl).toBe(`${server.url}/api/v0/computers/${c.id}`);
    const dir = path.join(workdir, 'laptop', 'shop');
    expect(c.clonedRepoDirectories).toEqual([dir]);
    expect(existsSync(path.join(dir, '.git')), agent.output()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name).toBe('shop');

    const clone = (await api<{ log: string }>('GET', `/api/v0/computers/${c.id}/provisioning-steps/clone-repos`)).body;
    expect(clone.log).toContain(`git clone ${repo}`);
    expect(clone.log).toContain('Cloning into');
    // Progress redrawn with carriage returns is kept in its last state.
    expect(clone.log).not.toContain('\r');
    const s = await session(c.id, stepOf(c, 'install-dependencies').installSessionId!);
    expect(s).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(s.log).toContain('package-lock.json found; $ npm ci');
    expect(s.log).toContain('preinstall of shop ran');
    expect(s.startedAt).toBeLessThanOrEqual(s.endedAt!);

    // The host id is stable: a second start of the agent on this machine registers the same host.
    await agent.stop();
    const again = agentFor('laptop', workdir);
    await waitFor(async () => (again.output().includes('registered host') ? true : undefined), 10_000, 'the agent to register again');
    expect((await get(c.id)).hostId).toBe(c.hostId);
  });

  it('a failing install → failed step, computer error, reason in error; install-deps again → new session → active', async () => {
    const marker = path.join(root, 'allow-install');
    const script = `node -e "if (!require('fs').existsSync('${marker}')) { console.error('install refused: ${marker} is missing'); process.exit(1) }"`;
    const repo = makeGitRepo(path.join(root, 'repos', 'strict'), nodeProject('strict', script));
    const created = await api<Computer>('POST', '/api/v0/computers', { name: 'strict-box', repos: [repo] });
    agentFor('strict-box', path.join(root, 'work-strict'));
    const failed = await until(created.body.id, (x) => x.status !== 'provisioning', 'the install to end');
    expect(failed.status).toBe('error');
    const step = stepOf(failed, 'install-dependencies');
    expect(step.status).toBe('failed');
    expect(step.error).toContain('`npm ci`');
    expect(step.error).toContain('exited with code 1');
    expect(step.error).toContain('install refused');
    const first = await session(failed.id, step.installSessionId!);
    expect(first).toMatchObject({ status: 'failed', exitCode: 1 });

    writeFileSync(marker, 'yes');
    const again = await api<Computer>('POST', `/api/v0/computers/${failed.id}/install-deps`);
    expect(again.status).toBe(202);
    const running = stepOf(again.body, 'install-dependencies');
    expect(running.status).toBe('running');
    expect(running.installSessionId).not.toBe(step.installSessionId);
    const active = await until(failed.id, (x) => x.status !== 'provisioning', 'the second install to end');
    expect(active.status).toBe('active');
    expect((await session(failed.id, running.installSessionId!)).status).toBe('succeeded');
  });

  it('killing the agent mid-install fails the step with a message naming the lost agent, within the heartbeat timeout', async () => {
    const pidFile = path.join(root, 'slow-install.pid');
    const script = `node -e "require('fs').writeFileSync('${pidFile}', String(process.pid)); setTimeout(() => {}, 60000)"`;
    onCleanup(() => {
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    const repo = makeGitRepo(path.join(root, 'repos', 'slow'), nodeProject('slow', script));
    const created = await api<Computer>('POST', '/api/v0/computers', { name: 'doomed-box', repos: [repo] });
    const agent = agentFor('doomed-box', path.join(root, 'work-doomed'));
    await waitFor(async () => (existsSync(pidFile) ? true : undefined), 30_000, 'the install to start', 100);
    expect(stepOf(await get(created.body.id), 'install-dependencies').status).toBe('running');
    await agent.stop('SIGKILL');
    const failed = await until(created.body.id, (x) => x.status === 'error', 'the lost agent to be noticed', 10_000);
    // Noticed within the heartbeat timeout, by the service's own account of the silence it measured
    // (from the last heartbeat to the engine's tick that failed the step, in whole seconds).
    const error = stepOf(failed, 'install-dependencies').error ?? '';
    expect(error).toMatch(/^host agent lost: no heartbeat for \d+ s/);
    const silentS = Number(/no heartbeat for (\d+) s/.exec(error)?.[1]);
    expect(silentS).toBeGreaterThanOrEqual(LEASE_MS / 1000);
    expect(silentS).toBeLessThanOrEqual(LEASE_MS / 1000 + 1);
    expect((await session(failed.id, stepOf(failed, 'install-dependencies').installSessionId!)).status).toBe('failed');
  });

  it('stopping the agent (SIGTERM) kills the install process group and reports the step failed at once', async () => {
    const pidFile = path.join(root, 'term-install.pid');
    const script = `node -e "require('fs').writeFileSync('${pidFile}', String(process.pid)); setTimeout(() => {}, 60000)"`;
    const repo = makeGitRepo(path.join(root, 'repos', 'term'), nodeProject('term', script));
    const created = await api<Computer>('POST', '/api/v0/computers', { name: 'term-box', repos: [repo] });
    const agent = agentFor('term-box', path.join(root, 'work-term'));
    await waitFor(async () => (existsSync(pidFile) ? true : undefined), 30_000, 'the install to start', 100);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    expect(await agent.stop('SIGTERM')).toBe(0);
    await waitFor(async () => (isAlive(pid) ? undefined : true), 5000, `the install process ${pid} to end`);
    const c = await get(created.body.id);
    expect(c.status).toBe('error');
    expect(stepOf(c, 'install-dependencies').error).toBe('host agent stopped (SIGTERM) during install-dependencies');
  });
});
