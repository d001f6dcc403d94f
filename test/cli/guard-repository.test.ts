import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { guardHome, runGuard } from '../helpers/guard.js';
import { orgInstallation } from '../helpers/installation.js';
import { MANAGED_SCOPES } from '../../src/client/managed-scopes.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl guard repository`, the SessionStart hook of `orgctl connect`, as a process against a
// real service: in a checkout with a remote the session's usage goes to that repository; outside
// a checkout, or in one without a remote, it records nothing; with the service down it exits 0 at once.

let root: string;
let server: Server;
let ownerKey: string;
let key: string;
let serviceKey: string;
// The analytics report closed days: the usage is sent as of yesterday (UTC), late in the day.
const yesterdayMs = Date.parse(new Date().toISOString().slice(0, 10)) - 3_600_000;
const yesterday = new Date(yesterdayMs).toISOString().slice(0, 10);

beforeAll(async () => {
  root = tempDir('orgctl-guard-repo-');
  // A managed install's key: a service account with the manager role.
  const installed = await orgInstallation([
    { email: 'mia@acme.test' },
    { email: 'leo@acme.test', key: false },
    { serviceAccount: 'mdm', role: 'manager', scopes: MANAGED_SCOPES },
  ]);
  ownerKey = installed.ownerKey;
  key = installed.keys['mia@acme.test']!;
  serviceKey = installed.keys.mdm!;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
}, 180_000);

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

/** 1000 input tokens of a model at 1x (a credit a token) in `session`, yesterday, sent with `by` (Mia's key). */
async function use(session: string, by = key): Promise<void> {
  const event = { id: `use-${session}`, type: 'model_request', timestamp: yesterdayMs, sessionId: session, client: 'terminal-ui' };
  const res = await fetch(`${server.url}/api/v1/telemetry/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${by}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      events: [{ ...event, model: 'unknown-model', tier: 'standard', inputTokens: 1000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }],
    }),
  });
  expect(res.status).toBe(202);
}

async function repositories(repository?: string): Promise<{ repository: string; input_tokens: number; sessions: number }[]> {
  const only = repository === undefined ? '' : `&repository=${encodeURIComponent(repository)}`;
  const res = await fetch(`${server.url}/api/v1/analytics/repositories?startDate=${yesterday}&endDate=${yesterday}${only}`, {
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

  it("managed (a service account's key and --email, as connect --managed writes it): the named person's session goes to the repository", async () => {
    const c = checkout('managed', 'https://github.com/acme/managed.git');
    // Mia's usage, as her managed client's telemetry files it (under her email; here through her key).
    await use('managed-session', key);
    const input = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'managed-session', cwd: c.dir, source: 'startup' });
    const home = guardHome(root);
    // Another person's email names a session of theirs, which this one is not: nothing moves.
    expect(await runGuard(['repository', '--client', 'codex', '--email', 'leo@acme.test'], { home, url: server.url, key: serviceKey, input })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await repositories('github.com/acme/managed')).toEqual([]);
    const r = await runGuard(['repository', '--client', 'codex', '--email', 'mia@acme.test'], { home, url: server.url, key: serviceKey, input });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await repositories('github.com/acme/managed')).toEqual([expect.objectContaining({ input_tokens: 1000 })]);
  });

  it("a member's key may not name another person: 403, and the hook still exits 0 and says nothing", async () => {
    const res = await fetch(`${server.url}/api/v1/telemetry/sessions/s1/repository?email=leo%40acme.test`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://github.com/acme/other.git' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toContain("Only owners and managers record another user's session");
    const unknown = await fetch(`${server.url}/api/v1/telemetry/sessions/s1/repository?email=nobody%40acme.test`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://github.com/acme/other.git' }),
    });
    expect(unknown.status).toBe(404);
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
