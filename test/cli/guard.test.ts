import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { ageCache, guardHome, runGuard, systemMessage } from '../helpers/guard.js';
import { orgInstallation } from '../helpers/installation.js';
import { MANAGED_SCOPES } from '../../src/client/managed-scopes.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl guard`, the enforcement hook, as a process against a real service: first under the
// default policy (block, thresholds 80 and 95, unreachable open), then under policies set through
// the API. guard-policy.test.ts covers the same rules against a stand-in (an allowance without a
// policy, a 5xx, a new period) where the real service cannot be made to answer so.

let root: string;
let server: Server;
let ownerKey: string;
let botKey: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  root = tempDir('orgctl-guard-');
  const members = ['mia', 'bo', 'wes', 'ada'];
  const installed = await orgInstallation([
    ...members.map((name) => ({ email: `${name}@acme.test` })),
    { serviceAccount: 'guard-bot', role: 'manager', scopes: MANAGED_SCOPES },
  ]);
  ownerKey = installed.ownerKey;
  for (const name of members) keys[name] = installed.keys[`${name}@acme.test`]!;
  botKey = installed.keys['guard-bot']!;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
  await api('PUT', '/api/v0/organization/usage/limits/global', { limit: 50_000_000 });
}, 180_000);

async function api(method: string, url: string, body: unknown, key = ownerKey): Promise<void> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

let eventId = 0;
/** Usage of `credits` (a multiple of 1.2) by `who`: Claude Sonnet 4.5 input tokens at 1.2 credits each. */
const use = (who: string, credits: number) =>
  api(
    'POST',
    '/api/v1/telemetry/events',
    {
      events: [
        {
          id: `guard-${++eventId}`,
          type: 'model_request',
          timestamp: Date.now() - 60_000,
          sessionId: 's',
          client: 'terminal-ui',
          model: 'claude-sonnet-4-5',
          tier: 'standard',
          inputTokens: Math.round(credits / 1.2),
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
      ],
    },
    keys[who],
  );
const limit = (who: string, credits: number) =>
  api('PUT', '/api/v0/organization/usage/limits/users', { users: [{ email: `${who}@acme.test`, limit: credits }] });
const enforce = (mode: string, unreachable = 'open', thresholds = [80, 95]) =>
  api('PUT', '/api/v0/organization/usage/enforcement', { mode, thresholds, unreachable });
const guard = (who: string, home = guardHome(root), args = ['prompt', '--client', 'claude-code']) => runGuard(args, { home, url: server.url, key: keys[who]! });

/** The first day of next month (UTC): when this month's allowance resets. */
function resetDay(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

describe('orgctl guard against the service', () => {
  it('under the limit: exit 0 and nothing on stdout or stderr', async () => {
    await use('mia', 2_400_000);
    const r = await guard('mia');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('over the limit: exit 2 and one line naming used, limit, the source and the reset day', async () => {
    await use('bo', 2_400_000);
    await limit('bo', 2_000_000);
    for (const client of ['claude-code', 'codex', 'gemini-cli']) {
      const r = await guard('bo', guardHome(root), ['prompt', '--client', client]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `orgctl: usage limit reached: 2.4M of 2M credits used (individual limit); resets ${resetDay().toISOString().slice(0, 10)}. Ask an owner or manager of your organization to raise it.\n`,
      );
    }
    // Droid: a tool call is blocked; at session start nothing can be, so the person is told.
    expect((await guard('bo', guardHome(root), ['tool', '--client', 'droid'])).code).toBe(2);
    const start = await guard('bo', guardHome(root), ['session-start', '--client', 'droid']);
    expect(start.code).toBe(0);
    expect(systemMessage(start)).toMatch(/^orgctl: usage limit reached: 2\.4M of 2M credits used \(individual limit\)/);
  });

  it('warns once per threshold per period: 80 %, silent again, then 95 %', async () => {
    await limit('wes', 3_000_000);
    await use('wes', 2_400_000);
    const home = guardHome(root);
    const first = await guard('wes', home);
    expect(first.code).toBe(0);
    expect(systemMessage(first)).toBe(
      `orgctl: 80% of your usage limit used: 2.4M of 3M credits (individual limit); resets ${resetDay().toISOString().slice(0, 10)}.`,
    );
    expect(first.stderr).toBe('');
    // Within the cache's 30 s and after it (a new cache, the same state): said once.
    expect(await guard('wes', home)).toMatchObject({ code: 0, stdout: '' });
    expect(await guard('wes', { ...guardHome(root), state: home.state })).toMatchObject({ code: 0, stdout: '' });
    await use('wes', 480_000);
    const fresh = { ...guardHome(root), state: home.state };
    expect(systemMessage(await guard('wes', fresh))).toMatch(/^orgctl: 95% of your usage limit used: 2\.9M of 3M credits/);
    expect(await guard('wes', fresh)).toMatchObject({ code: 0, stdout: '' });
  });

  it('a refused key: allowed, and said once, clearly', async () => {
    const home = guardHome(root);
    const first = await runGuard(['prompt', '--client', 'claude-code'], { home, url: server.url, key: 'ock_not_a_key' });
    expect(first.code).toBe(0);
    expect(systemMessage(first)).toBe(
      'orgctl: the API key was refused (HTTP 401); run `orgctl login` again or ask for a new key. Usage limits are not checked.',
    );
    expect(await runGuard(['prompt', '--client', 'claude-code'], { home, url: server.url, key: 'ock_not_a_key' })).toMatchObject({ code: 0, stdout: '' });
  });

  it('status-line: used, limit and reset day in one line; a refused key or no service in a few words', async () => {
    await use('ada', 12_300_000);
    const month = resetDay().toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
    const line = await guard('ada', guardHome(root), ['status-line', '--client', 'claude-code']);
    expect(line).toMatchObject({ code: 0, stdout: `orgctl 12.3M/50M credits · resets ${month} 1\n`, stderr: '' });
    const refused = await runGuard(['status-line'], { home: guardHome(root), url: server.url, key: 'ock_not_a_key' });
    expect(refused).toMatchObject({ code: 0, stdout: 'orgctl: key refused\n' });
    const down = await runGuard(['status-line'], { home: guardHome(root), url: 'http://127.0.0.1:1', key: keys.ada! });
    expect(down).toMatchObject({ code: 0, stdout: 'orgctl: unreachable\n' });
  });
});

describe('orgctl guard under the policy set through the API', () => {
  it('warn: a spent allowance is said once and never blocks; off: nothing', async () => {
    await enforce('warn');
    const home = guardHome(root);
    const spent = await guard('bo', home);
    expect(spent.code).toBe(0);
    expect(systemMessage(spent)).toMatch(
      /^orgctl: usage limit reached: 2\.4M of 2M credits used \(individual limit\); .* Not blocked: your organization's policy only warns\.$/,
    );
    expect(await guard('bo', { ...guardHome(root), state: home.state })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await enforce('off');
    expect(await guard('bo')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await enforce('block');
  });

  it("a manager service account's key asks for a person by --email", async () => {
    const r = await runGuard(['tool', '--client', 'droid', '--email', 'bo@acme.test'], { home: guardHome(root), url: server.url, key: botKey });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^orgctl: usage limit reached: 2\.4M of 2M credits used \(individual limit\)/);
  });

  // Last: it stops the service.
  it('a cached allowance answers while the service is down; past its 30 s, closed blocks with why', async () => {
    await enforce('block', 'closed');
    const cached = guardHome(root);
    expect((await guard('bo', cached)).code).toBe(2);
    const stale = guardHome(root);
    expect(await guard('mia', stale)).toMatchObject({ code: 0, stdout: '' });
    ageCache(stale);
    await server.stop();
    expect(await guard('bo', cached)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^orgctl: usage limit reached: 2\.4M of 2M/) });
    const closed = await guard('mia', stale);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toBe(
      `orgctl: cannot reach ${server.url} (connection refused); your organization's policy blocks agents while usage limits cannot be checked. Try again when it answers.\n`,
    );
  });
});
