import { existsSync } from 'node:fs';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, makeGitRepo, nodeProject, startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { onPostgres } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

type Computer = { id: string; status: string; provisioningSteps: { id: string; status: string; error?: string }[] };

describe('restarting the service mid-provisioning', () => {
  it('a crash (SIGKILL) of orgctl serve during an install leaves no step running: the agent reconnects and finishes', async () => {
    const root = tempDir('orgctl-restart-');
    // A lease long enough to outlast a restart on a loaded machine (PGlite starting, migrations checked).
    const env = { ...(await installation()), PORT: String(await freePort()), COMPUTERS_LEASE_MS: '30000', COMPUTERS_ENGINE_TICK_MS: '100' };
    const init = await runCli(['init', '--org', 'restart', '--owner-email', 'o@restart.test', '--json'], env);
    const key = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;

    const servers: Server[] = [];
    onCleanup(() => Promise.all(servers.map((s) => s.stop())));
    const start = async () => {
      const s = await startServer({ ...env, CI_ALLOW_PRIVATE_NETWORK: 'true' });
      servers.push(s);
      return s;
    };
    let server = await start();
    const api = async <T>(method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as T;
    };

    const started = path.join(root, 'install-started');
    const script = `node -e "require('fs').writeFileSync('${started}', '1'); setTimeout(() => console.log('slow install done'), 4000)"`;
    const repo = makeGitRepo(path.join(root, 'repo'), nodeProject('slow', script));
    const c = await api<Computer>('POST', '/api/v0/computers', { name: 'restart-box', repos: [repo] });
    const agent: AgentProcess = startAgent({ url: server.url, key, computer: 'restart-box', workdir: path.join(root, 'work') });
    onCleanup(() => agent.stop('SIGKILL'));
    await waitFor(async () => (existsSync(started) ? true : undefined), 30_000, 'the install to start', 100);

    server.process.kill('SIGKILL');
    await new Promise((r) => server.process.once('exit', r));
    server = await start();

    const settled = await waitFor(
      async () => {
        const now = await api<Computer>('GET', `/api/v0/computers/${c.id}`);
        return now.provisioningSteps.some((s) => s.status === 'running' || s.status === 'pending') ? undefined : now;
      },
      45_000,
      'no step running',
      200,
    );
    expect(settled.provisioningSteps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(settled.status).toBe('active');
    expect(agent.output()).toMatch(/heartbeat of install-dependencies failed|service unreachable/);
    await waitFor(async () => (/reconnected to the service after \d+\.\d s/.test(agent.output()) ? true : undefined), 5000, 'the agent to say it is back');
    // The agent logs its report after the service has it.
    await waitFor(async () => (agent.output().includes('install-dependencies succeeded') ? true : undefined), 5000, 'the agent to log its report');
  }, 120_000);

  it.skipIf(!onPostgres)(
    'two orgctl serve processes on one PostgreSQL: work queued on one reaches an agent polling the other; one 202 across both',
    async () => {
      const root = tempDir('orgctl-two-');
      const env = { ...(await installation()), COMPUTERS_LEASE_MS: '3000', COMPUTERS_ENGINE_TICK_MS: '100', COMPUTERS_AGENT_POLL_MS: '100' };
      const init = await runCli(['init', '--org', 'two', '--owner-email', 'o@two.test', '--json'], env);
      const key = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
      const [a, b] = await Promise.all([startServer({ ...env, CI_ALLOW_PRIVATE_NETWORK: 'true' }), startServer({ ...env, CI_ALLOW_PRIVATE_NETWORK: 'true' })]);
      onCleanup(() => Promise.all([a.stop(), b.stop()]));
      const call = async <T>(server: Server, method: string, url: string, body?: unknown) => {
        const res = await fetch(`${server.url}${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
      };
      const repo = makeGitRepo(path.join(root, 'repo'), nodeProject('two', 'echo installing'));
      const c = (await call<Computer>(b, 'POST', '/api/v0/computers', { name: 'two-box', repos: [repo] })).body;
      const agent = startAgent({ url: a.url, key, computer: 'two-box', workdir: path.join(root, 'work') });
      onCleanup(() => agent.stop('SIGKILL'));
      const settle = () =>
        waitFor(
          async () => {
            const now = (await call<Computer>(b, 'GET', `/api/v0/computers/${c.id}`)).body;
            return now.status === 'provisioning' ? undefined : now;
          },
          30_000,
          'provisioning to end',
          100,
        );
      expect((await settle()).status).toBe('active');

      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? a : b, 'POST', `/api/v0/computers/${c.id}/install-deps`)));
      expect(results.filter((r) => r.status === 202)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(39);
      const done = await settle();
      expect(done.status).toBe('active');
      const installs = agent.output().match(/running install-dependencies/g) ?? [];
      expect(installs).toHaveLength(2); // the first provisioning and the one install-deps, each run once
    },
    120_000,
  );
});
