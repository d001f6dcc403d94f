import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { guardHome, runGuard } from '../helpers/guard.js';
import { fileInstallation } from '../helpers/installation.js';

// `orgctl guard repository`, the SessionStart hook of `orgctl connect`, as a process against a
// real service: in a checkout with a remote the session's usage goes to that repository; outside
// a checkout, or in one without a remote, it records nothing; with the service down it exits 0 at once.

let root: string;
let server: Server;
let ownerKey: string;
let key: string;
const cleanups: (() => Promise<unknown> | void)[] = [];
// The analytics report closed days: the usage is sent as of yesterday (UTC), late in the day.
const yesterdayMs = Date.parse(new Date().toISOString().slice(0, 10)) - 3_600_000;
const yesterday = new Date(yesterdayMs).toISOString().slice(0, 10);

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'orgctl-guard-repo-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const installed = await fileInstallation(root);
  cleanups.push(installed.remove);
  ownerKey = installed.ownerKey;
  expect((await runCli(['users', 'add', '--email', 'mia@acme.test', '--role', 'member', '--json'], installed.env)).code).toBe(0);
  const created = await runCli(['keys', 'create', '--local', '--email', 'mia@acme.test', '--json'], installed.env);
  key = (JSON.parse(created.stdout) as { apiKey: string }).apiKey;
  server = await startServer(installed.env);
  cleanups.push(() => server.stop());
}, 180_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@acme.test', ...args], { cwd: dir, encoding: 'utf8' }).trim();

/** A checkout on branch `work` with one commit, and `origin` when a remote is given. */
function checkout(name: string, remote?: string): { dir: string; commit: string } {
  const dir = path.join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'work');
  if (remote) git(dir, 'remote', 'add', 'origin', remote);
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'first');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}

/** 1000 input tokens of a model at 1x (a credit a token) in `session`, yesterday. */
async function use(session: string): Promise<void> {
  const event = { id: `use-${session}`, type: 'model_request', timestamp: yesterdayMs, sessionId: session, client: 'terminal-ui' };
  const res = await fetch(`${server.url}/api/v1/telemetry/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      events: [{ ...event, model: 'unknown-model', tier: 'standard', inputTokens: 1000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }],
    }),
  });
  expect(res.status).toBe(202);
}

async function repositories(): Promise<{ repository: string; input_tokens: number; sessions: number }[]> {
  const res = await fetch(`${server.url}/api/v1/analytics/repositories?startDate=${yesterday}&endDate=${yesterday}`, {
    headers: { authorization: `Bearer ${ownerKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { repository: string; input_tokens: number; sessions: number }[] }).data;
}

const hook = (session: string, cwd: string, url = server.url) =>
  runGuard(['repository', '--client', 'claude-code'], {
    home: guardHome(root),
    url,
    key,
    input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: session, cwd, source: 'startup' }),
  });

describe('orgctl guard repository (the SessionStart hook) against the service', () => {
  it('in a checkout with a remote: the session and its usage so far go to that repository, and the hook says nothing', async () => {
    const c = checkout('widgets', 'https://mia:secret@GitHub.com/Acme/Widgets.git');
    await use('in-checkout');
    const r = await hook('in-checkout', path.join(c.dir));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await repositories()).toEqual([expect.objectContaining({ repository: 'github.com/acme/widgets', input_tokens: 1000 })]);
  });

  it('from a subdirectory of the checkout, through an scp-like remote: the same repository', async () => {
    const c = checkout('gadgets', 'git@github.com:acme/gadgets.git');
    mkdirSync(path.join(c.dir, 'src'));
    await use('in-subdir');
    expect((await hook('in-subdir', path.join(c.dir, 'src'))).code).toBe(0);
    expect((await repositories()).map((x) => x.repository)).toEqual(['github.com/acme/gadgets', 'github.com/acme/widgets']);
  });

  it('outside a checkout, or in one without a remote: nothing is recorded', async () => {
    const outside = mkdtempSync(path.join(root, 'plain-'));
    const local = checkout('local-only');
    await use('outside');
    await use('no-remote');
    expect(await hook('outside', outside)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await hook('no-remote', local.dir)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await repositories()).map((x) => [x.repository, x.input_tokens])).toEqual([
      ['github.com/acme/gadgets', 1000],
      ['github.com/acme/widgets', 1000],
    ]);
  });

  it('input that is not the hook JSON, or a directory that does not exist: exit 0, nothing said', async () => {
    const home = guardHome(root);
    const bad = await runGuard(['repository', '--client', 'claude-code'], { home, url: server.url, key, input: 'not json' });
    expect(bad).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await hook('gone', path.join(root, 'no-such-dir'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('with the service down: exit 0 quickly, nothing said', async () => {
    const c = checkout('offline', 'https://github.com/acme/offline.git');
    // A port that was free a moment ago: the connection is refused.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const started = performance.now();
    const r = await hook('offline', c.dir, `http://127.0.0.1:${port}`);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
