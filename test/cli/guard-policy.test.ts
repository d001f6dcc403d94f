import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ageCache, guardHome, runGuard, systemMessage, type GuardHome } from '../helpers/guard.js';

// `orgctl guard` under each enforcement policy (contract §16). The service does not serve the
// policy yet (the allowance has no `enforcement` until the policy API lands), so a stand-in
// answers GET /api/v0/usage/allowance with the shape the policy API adds; guard.test.ts runs the
// hook against the real service with the default policy.

let root: string;
let stub: Server;
let url: string;
let answer: { status: number; body: unknown };
const requests: string[] = [];

const PERIOD = { periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' };
const allowance = (used: number, enforcement?: unknown, limit: number | null = 50_000_000) => ({
  limit,
  source: limit === null ? 'none' : 'team',
  used,
  remaining: limit === null ? null : Math.max(0, limit - used),
  ...PERIOD,
  ...(enforcement === undefined ? {} : { enforcement }),
});
const policy = (mode: string, unreachable = 'open', thresholds = [80, 95]) => ({ mode, thresholds, unreachable });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'orgctl-guard-policy-'));
  stub = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => stub.close(r));
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  requests.length = 0;
});

const guard = (home: GuardHome, args = ['prompt', '--client', 'claude-code'], at = url) => runGuard(args, { home, url: at, key: 'ock_stub' });
const BLOCKED =
  'orgctl: usage limit reached: 52.1M of 50M credits used (team limit); resets 2026-12-01. Ask an owner or manager of your organization to raise it.\n';

describe('orgctl guard under the enforcement policy', () => {
  it('block: a spent allowance blocks every client with exit 2; --email asks for that person', async () => {
    answer = { status: 200, body: allowance(52_100_000, policy('block')) };
    for (const client of ['claude-code', 'codex', 'gemini-cli'])
      expect(await guard(guardHome(root), ['prompt', '--client', client])).toMatchObject({ code: 2, stdout: '', stderr: BLOCKED });
    expect(await guard(guardHome(root), ['tool', '--client', 'droid', '--email', 'mia@acme.test'])).toMatchObject({ code: 2, stderr: BLOCKED });
    expect(requests.at(-1)).toBe('/api/v0/usage/allowance?email=mia%40acme.test');
  });

  it('warn: a spent allowance never blocks; each threshold and the spent allowance are said once', async () => {
    const home = guardHome(root);
    answer = { status: 200, body: allowance(41_000_000, policy('warn')) };
    expect(systemMessage(await guard(home))).toBe('orgctl: 80% of your usage limit used: 41M of 50M credits (team limit); resets 2026-12-01.');
    ageCache(home);
    answer = { status: 200, body: allowance(52_100_000, policy('warn')) };
    const spent = await guard(home);
    expect(spent.code).toBe(0);
    expect(systemMessage(spent)).toBe(
      "orgctl: usage limit reached: 52.1M of 50M credits used (team limit); resets 2026-12-01. Not blocked: your organization's policy only warns.",
    );
    ageCache(home);
    expect(await guard(home)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a new period warns again; custom thresholds are followed', async () => {
    const home = guardHome(root);
    answer = { status: 200, body: allowance(26_000_000, policy('block', 'open', [50])) };
    expect(systemMessage(await guard(home))).toMatch(/^orgctl: 50% of your usage limit used: 26M of 50M/);
    ageCache(home);
    expect((await guard(home)).stdout).toBe('');
    ageCache(home);
    answer = {
      status: 200,
      body: { ...allowance(26_000_000, policy('block', 'open', [50])), periodStart: '2026-12-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z' },
    };
    expect(systemMessage(await guard(home))).toMatch(/^orgctl: 50% .* resets 2027-01-01\.$/);
  });

  it("a team's budget is named by the team", async () => {
    answer = { status: 200, body: { ...allowance(52_100_000, policy('block')), teamName: 'backend' } };
    expect((await guard(guardHome(root))).stderr).toBe(BLOCKED.replace('(team limit)', '(team "backend" limit)'));
  });

  it('off: nothing, whatever the usage', async () => {
    answer = { status: 200, body: allowance(99_000_000, policy('off')) };
    expect(await guard(guardHome(root))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a cached allowance answers within 30 s without asking the service', async () => {
    const home = guardHome(root);
    answer = { status: 200, body: allowance(52_100_000, policy('block')) };
    expect((await guard(home)).code).toBe(2);
    answer = { status: 200, body: allowance(0, policy('block')) };
    expect(await guard(home)).toMatchObject({ code: 2, stderr: BLOCKED });
    expect(requests).toHaveLength(1);
  });

  it('unreachable, open: allowed and said once until the service answers again', async () => {
    const home = guardHome(root);
    answer = { status: 200, body: allowance(1_000_000, policy('block', 'open')) };
    expect(await guard(home)).toMatchObject({ code: 0, stdout: '' });
    ageCache(home);
    answer = { status: 503, body: { detail: 'down' } };
    const first = await guard(home);
    expect(first.code).toBe(0);
    expect(systemMessage(first)).toBe(`orgctl: cannot reach ${url} (HTTP 503); usage limits are not checked until it answers again.`);
    expect(await guard(home)).toMatchObject({ code: 0, stdout: '' });
    // Reachable again, then refused connections: said again.
    answer = { status: 200, body: allowance(1_000_000, policy('block', 'open')) };
    expect(await guard(home)).toMatchObject({ code: 0, stdout: '' });
    ageCache(home);
    expect(systemMessage(await guard(home, undefined, 'http://127.0.0.1:1'))).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 \(connection refused\)/);
    // Never reached: the default policy is open.
    expect(systemMessage(await guard(guardHome(root), undefined, 'http://127.0.0.1:1'))).toMatch(/usage limits are not checked/);
  });

  it('unreachable, closed: blocked at every prompt with a message that says why', async () => {
    const home = guardHome(root);
    answer = { status: 200, body: allowance(1_000_000, policy('block', 'closed')) };
    expect((await guard(home)).code).toBe(0);
    ageCache(home);
    answer = { status: 502, body: {} };
    const closed = `orgctl: cannot reach ${url} (HTTP 502); your organization's policy blocks agents while usage limits cannot be checked. Try again when it answers.\n`;
    expect(await guard(home)).toMatchObject({ code: 2, stderr: closed });
    expect(await guard(home)).toMatchObject({ code: 2, stderr: closed });
  });

  it('a refused key under a closed policy blocks, with how to fix it; under an open one it is said once', async () => {
    const refusedClosed =
      "orgctl: the API key was refused (HTTP 401); your organization's policy blocks agents while usage limits cannot be checked. Run `orgctl login` again, or ask an administrator for a new key.\n";
    const home = guardHome(root);
    answer = { status: 200, body: allowance(1_000_000, policy('block', 'closed')) };
    expect((await guard(home)).code).toBe(0);
    ageCache(home);
    answer = { status: 401, body: { detail: 'invalid API key' } };
    expect(await guard(home)).toMatchObject({ code: 2, stderr: refusedClosed });
    expect(await guard(home)).toMatchObject({ code: 2, stderr: refusedClosed });
    // Never answered (a new address, a key refused from the start): the rollout's policy decides.
    expect(
      await runGuard(['prompt', '--client', 'claude-code'], { home: guardHome(root), url, key: 'ock_new', env: { ORGCTL_UNREACHABLE: 'closed' } }),
    ).toMatchObject({
      code: 2,
      stderr: refusedClosed,
    });
    const down = await runGuard(['prompt', '--client', 'codex'], {
      home: guardHome(root),
      url: 'http://127.0.0.1:1',
      key: 'ock_new',
      env: { ORGCTL_UNREACHABLE: 'closed' },
    });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot reach .*policy blocks agents/);
    const open = await guard(guardHome(root));
    expect(open.code).toBe(0);
    expect(systemMessage(open)).toMatch(/the API key was refused \(HTTP 401\).*Usage limits are not checked/);
  });

  it('status-line without a limit, and a hook input that is not JSON', async () => {
    answer = { status: 200, body: allowance(12_300_000, policy('block'), null) };
    expect(await guard(guardHome(root), ['status-line'])).toMatchObject({ code: 0, stdout: 'orgctl 12.3M credits · no limit\n' });
    const odd = await runGuard(['prompt', '--client', 'gemini-cli'], { home: guardHome(root), url, key: 'ock_stub', input: 'not json{' });
    expect(odd).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a mistake in the hook command never blocks: exit 1', async () => {
    expect(await guard(guardHome(root), ['prompts'])).toMatchObject({
      code: 1,
      stderr: 'orgctl guard: EVENT must be one of prompt, session-start, tool, status-line, repository\n',
    });
    expect((await guard(guardHome(root), ['prompt', '--client', 'cursor'])).code).toBe(1);
  });
});
