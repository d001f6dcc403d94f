import { statSync, writeFileSync, existsSync } from 'node:fs';

import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, nodeProject, startAgent, type AgentProcess } from '../helpers/agent-process.js';
import { spawn } from 'node:child_process';
import { MAIN, runCli, startServer, type CliResult, type Server } from '../helpers/cli.js';
import { BareRemote } from '../helpers/git-remote.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

let root: string;
let server: Server;
let ownerKey: string;
let config: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-api-');
  const installed = await orgInstallation([{ email: 'mia@acme.test', key: false }]);
  const env = installed.env;
  ownerKey = installed.ownerKey;
  // 30 users over 12 days: more than one page of /users (100 rows), so paging is exercised.
  expect((await runCli(['demo', 'seed', '--users', '30', '--days', '12'], env)).code).toBe(0);
  server = await startServer({ ...env, CI_ALLOW_PRIVATE_NETWORK: 'true', COMPUTERS_ENGINE_TICK_MS: '100' });
  onCleanup(() => server.stop());
  config = path.join(root, 'config');
}, 180_000);

/** The CLI as a running process whose stderr the test reads as it comes, until it exits. */
function followingCli(args: string[]) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, XDG_CONFIG_HOME: config, ORGCTL_URL: '', ORGCTL_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: 0 })));
  return {
    then: exited.then.bind(exited),
    saw: (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (stderr.includes(text)) return resolve();
          if (child.exitCode !== null) return reject(new Error(`exited without printing ${text}:\n${stderr}`));
          setTimeout(check, 50);
        };
        check();
      }),
  };
}

/** The CLI logged in through the stored configuration (no ORGCTL_* variables). */
const cli = (args: string[], input?: string) => runCli(args, { XDG_CONFIG_HOME: config, ORGCTL_URL: '', ORGCTL_API_KEY: '' }, input);
/** The same call straight to the API, as text: what --output json must print. */
const raw = async (p: string, key = ownerKey) => {
  const res = await fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, text: await res.text() };
};
const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

describe('login, me, logout', () => {
  it('login reads the key from a pipe, checks it, stores it with mode 0600; me uses it; logout forgets it', async () => {
    const login = await cli(['login', '--url', server.url], `${ownerKey}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('as owner@acme.test (owner) in acme');
    const file = path.join(config, 'orgctl', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const me = await cli(['me', '--output', 'json']);
    expect(me.code).toBe(0);
    expect(me.stdout.trim()).toBe((await raw('/api/v0/me')).text);
    expect((await cli(['me'])).stdout).toMatch(/^role\s+owner$/m);

    expect((await cli(['logout'])).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const after = await cli(['me']);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('orgctl login --url URL');
    expect((await cli(['login', '--url', server.url, '--key', ownerKey])).code).toBe(0);
  });

  it('a wrong key is refused at login and nothing is stored; flags and ORGCTL_* override the stored login', async () => {
    const other = path.join(root, 'other-config');
    const bad = await runCli(['login', '--url', server.url, '--key', 'ock_wrong'], { XDG_CONFIG_HOME: other });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Error: .*credential[\s\S]*HTTP 401, request id [0-9a-f-]{36}/);
    expect(existsSync(path.join(other, 'orgctl', 'config.json'))).toBe(false);
    const viaEnv = await runCli(['me', '--output', 'json'], { XDG_CONFIG_HOME: other, ORGCTL_URL: server.url, ORGCTL_API_KEY: ownerKey });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ email: 'owner@acme.test' });
    const flagWins = await cli(['me', '--key', 'ock_wrong']);
    expect(flagWins.code).toBe(1);
  });
});

describe('analytics', () => {
  const range = [`--from`, day(12), '--to', day(1)];
  const query = `startDate=${day(12)}&endDate=${day(1)}`;

  it.each(['tokens', 'tools', 'activity', 'productivity'])('%s: json is the API body; csv has one row per API row, with the same figures', async (name) => {
    const api = await raw(`/api/v1/analytics/${name}?${query}`);
    const json = await cli(['analytics', name, ...range, '--output', 'json']);
    expect(json.code).toBe(0);
    expect(json.stdout.trim()).toBe(api.text);

    const rows = (JSON.parse(api.text) as { data: Record<string, unknown>[] }).data;
    const csv = await cli(['analytics', name, ...range, '--output', 'csv']);
    const parsed = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(parsed).toHaveLength(rows.length);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^date,/);
    for (const [i, row] of rows.entries()) {
      for (const [k, v] of Object.entries(row)) if (typeof v === 'number' || typeof v === 'string') expect(parsed[i]?.[k]).toBe(String(v));
    }
    const table = await cli(['analytics', name, ...range]);
    expect(table.stdout.split('\n')[0]).toMatch(/^DATE\s+/);
    expect(table.stdout.trim().split('\n')).toHaveLength(rows.length + 1);
  });

  it('repositories: json is the API body, csv and the table one row per repository; --by-level the readiness comparison', async () => {
    const api = await raw(`/api/v1/analytics/repositories?${query}`);
    const json = await cli(['analytics', 'repositories', ...range, '--output', 'json']);
    expect(json.code).toBe(0);
    expect(json.stdout.trim()).toBe(api.text);
    const rows = (JSON.parse(api.text) as { data: { repository: string; billable_tokens: number; readiness: { level: number | null }[] }[] }).data;
    expect(rows.map((r) => r.repository).sort()).toEqual(['api', 'infra', 'mobile', 'web'].map((n) => `github.com/acme/${n}`));
    const csv = parse((await cli(['analytics', 'repositories', ...range, '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => [r.repository, r.billable_tokens])).toEqual(rows.map((r) => [r.repository, String(r.billable_tokens)]));
    const table = await cli(['analytics', 'repositories', ...range]);
    expect(table.stdout.split('\n')[0]).toMatch(/^REPOSITORY\s+/);
    expect(table.stdout.trim().split('\n')).toHaveLength(rows.length + 1);
    const byLevel = await cli(['analytics', 'repositories', ...range, '--by-level', '--output', 'json']);
    expect(byLevel.stdout.trim()).toBe((await raw(`/api/v1/analytics/repositories/readiness?${query}`)).text);
  });

  it('--group-by and --breakdown: one row per model per day, or per entry of by_model', async () => {
    const grouped = await cli(['analytics', 'tokens', ...range, '--group-by', 'model', '--output', 'json']);
    expect(grouped.stdout.trim()).toBe((await raw(`/api/v1/analytics/tokens?${query}&group_by=model`)).text);
    const rows = (
      JSON.parse((await raw(`/api/v1/analytics/tokens?${query}`)).text) as { data: { by_model: { model_id: string; billable_tokens: number }[] }[] }
    ).data;
    const csv = parse((await cli(['analytics', 'tokens', ...range, '--breakdown', 'by_model', '--output', 'csv'])).stdout, { columns: true }) as Record<
      string,
      string
    >[];
    expect(csv).toHaveLength(rows.reduce((n, r) => n + Math.max(1, r.by_model.length), 0));
    const first = rows.find((r) => r.by_model.length > 0)!.by_model[0]!;
    expect(csv.some((r) => r['by_model.model_id'] === first.model_id && r['by_model.billable_tokens'] === String(first.billable_tokens))).toBe(true);
  });

  it('users pages through to the end: every row of every page, in order', async () => {
    const all: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = JSON.parse((await raw(`/api/v1/analytics/users?${query}&limit=100${cursor ? `&cursor=${cursor}` : ''}`)).text) as {
        data: unknown[];
        meta: { next_cursor: string | null; has_more: boolean };
      };
      all.push(...page.data);
      cursor = page.meta.has_more ? page.meta.next_cursor : null;
    } while (cursor);
    expect(all.length).toBeGreaterThan(100);
    const json = JSON.parse((await cli(['analytics', 'users', ...range, '--output', 'json'])).stdout) as { data: unknown[]; meta: { has_more: boolean } };
    expect(json.data).toEqual(all);
    expect(json.meta.has_more).toBe(false);
    const csv = parse((await cli(['analytics', 'users', ...range, '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(all.length);
  });

  it('dates default to the last 30 closed days; a bad date is a usage error', async () => {
    const json = JSON.parse((await cli(['analytics', 'activity', '--output', 'json'])).stdout) as { meta: { start_date: string; end_date: string } };
    expect(json.meta).toMatchObject({ start_date: day(30), end_date: day(1) });
    const bad = await cli(['analytics', 'activity', '--from', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from must be a date YYYY-MM-DD');
  });
});

describe('limits and keys', () => {
  it('set, get, users and audit; a partly refused bulk set exits 1 and names the refused user', async () => {
    expect((await cli(['limits', 'set', '--limit', '4_000_000'])).stdout).toContain('Global limit set to 4,000,000.');
    expect((await cli(['limits', 'get', '--output', 'json'])).stdout.trim()).toBe('{"limit":4000000}');
    const bulk = await cli(['limits', 'set', '--limit', '2000000', '--email', 'mia@acme.test', '--email', 'nobody@acme.test']);
    expect(bulk.code).toBe(1);
    expect(bulk.stdout).toContain('mia@acme.test: 2,000,000');
    expect(bulk.stdout).toMatch(/nobody@acme\.test: not set/);
    const users = parse((await cli(['limits', 'users', '--output', 'csv'])).stdout, { columns: true });
    expect(users).toEqual([{ email: 'mia@acme.test', limit: '2000000' }]);
    const audit = JSON.parse((await cli(['limits', 'audit', '--output', 'json'])).stdout) as { entries: { scope: string; newLimit: number }[] };
    expect(audit.entries.slice(0, 2)).toEqual([
      expect.objectContaining({ scope: 'user', newLimit: 2_000_000 }),
      expect.objectContaining({ scope: 'global', newLimit: 4_000_000 }),
    ]);
    const tooSmall = await cli(['limits', 'set', '--limit', '5']);
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stderr).toMatch(/limit must be >= 1000000[\s\S]*\(HTTP 400, request id /);
  });

  it('keys create shows the secret once; list shows it without; a revoked key answers 401 (exit 1)', async () => {
    const created = JSON.parse(
      (await cli(['keys', 'create', '--email', 'mia@acme.test', '--name', 'laptop', '--expires', '30d', '--output', 'json'])).stdout,
    ) as { id: string; key: string; prefix: string };
    expect(created.key).toMatch(/^ock_/);
    const listed = await cli(['keys', 'list']);
    expect(listed.stdout).toContain(created.prefix);
    expect(listed.stdout).not.toContain(created.key);
    const asMia = (args: string[]) => runCli(args, { XDG_CONFIG_HOME: path.join(root, 'none'), ORGCTL_URL: server.url, ORGCTL_API_KEY: created.key });
    expect((await asMia(['me', '--output', 'json'])).code).toBe(0);
    const forbidden = await asMia(['limits', 'set', '--limit', 'none']);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('HTTP 403');
    expect((await cli(['keys', 'revoke', created.id])).stdout).toContain(`Key ${created.id} revoked.`);
    const revoked = await asMia(['me']);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/HTTP 401, request id [0-9a-f-]{36}/);
    expect(revoked.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('account links', () => {
  it('users link, links and unlink: the API behind OTLP attribution by account id', async () => {
    const linked = await cli(['users', 'link', '--email', 'mia@acme.test', '--account-id', 'acct-42']);
    expect(linked.stdout).toContain('Account acct-42 is linked to mia@acme.test.');
    const list = parse((await cli(['users', 'links', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(list).toEqual([expect.objectContaining({ accountId: 'acct-42', email: 'mia@acme.test' })]);
    expect((await cli(['users', 'unlink', '--account-id', 'acct-42'])).code).toBe(0);
    const again = await cli(['users', 'unlink', '--account-id', 'acct-42']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('HTTP 404');
  });
});

describe('computers', () => {
  const agents: AgentProcess[] = [];
  afterAll(async () => {
    for (const a of agents) await a.stop('SIGKILL');
  });

  it('create --follow streams the steps and the output of a real host agent, and exits 0 when it is ready', async () => {
    // The install takes a moment, so that a second install-deps below meets the first one running.
    const repo = makeGitRepo(path.join(root, 'repos', 'app'), nodeProject('app', 'echo installing-app-deps && sleep 2'));
    const workdir = path.join(root, 'agent');
    const follow = followingCli(['computers', 'create', 'box', '--repo', repo, '--follow', '--timeout', '120']);
    // The agent starts once the CLI says it waits for one, as a user would after reading the hint.
    await follow.saw('Waiting for the host agent');
    agents.push(startAgent({ url: server.url, key: ownerKey, computer: 'box', workdir }));
    const done = await follow;
    expect(done.stderr).toContain('Waiting for the host agent');
    expect(done.stderr).toMatch(/Clone the repositories \(clone-repos\): succeeded/);
    expect(done.stderr).toMatch(/Install dependencies \(install-dependencies\): succeeded/);
    expect(done.stdout).toContain('installing-app-deps');
    expect(done.stderr).toContain('box is ready.');
    expect(done.code).toBe(0);

    const get = await cli(['computers', 'get', 'box']);
    expect(get.stdout).toMatch(/^status\s+active$/m);
    expect(get.stdout).toContain(`ORGCTL_API_KEY=<API key> orgctl agent --url ${server.url} --computer "box"`);
    const list = parse((await cli(['computers', 'list', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(list.map((c) => c.name)).toEqual(['box']);

    const install = await cli(['computers', 'install-deps', 'box']);
    expect(install.code).toBe(0);
    const again = await cli(['computers', 'install-deps', 'box']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already running[\s\S]*HTTP 409, request id [0-9a-f-]{36}, code install_running\)/);
    const { waitFor } = await import('../helpers/wait.js');
    await waitFor(
      async () => ((await cli(['computers', 'get', 'box'])).stdout.includes('succeeded Install dependencies') ? true : undefined),
      60_000,
      'the install',
      500,
    );
    const followed = await cli(['computers', 'install-deps', 'box', '--follow', '--timeout', '60']);
    expect(followed.stdout).toContain('installing-app-deps');
    expect(followed.stderr).toContain('Install dependencies (install-dependencies): succeeded');
    expect(followed.code).toBe(0);

    expect((await cli(['computers', 'rename', 'box', 'box2'])).stdout).toContain('Renamed box to box2.');
    expect((await cli(['computers', 'delete', 'box2'])).code).toBe(0);
    const gone = await cli(['computers', 'get', 'box2']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('HTTP 404');
  }, 180_000);
});

describe('readiness and ci', () => {
  it('readiness upload, list and summary', async () => {
    const file = path.join(root, 'report.json');
    writeFileSync(
      file,
      JSON.stringify({
        repoUrl: 'https://github.com/acme/web',
        apps: { web: { description: 'Site' } },
        report: { lint_config: { numerator: 1, denominator: 1, rationale: 'eslint.config.js' } },
      }),
    );
    const up = await cli(['readiness', 'upload', file, '--output', 'json']);
    expect(up.code).toBe(0);
    const stored = JSON.parse(up.stdout) as { reportId: string };
    const list = parse((await cli(['readiness', 'list', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(list.map((r) => r.reportId)).toEqual([stored.reportId]);
    const summary = await cli(['readiness', 'summary', '--output', 'json']);
    expect(summary.stdout.trim()).toBe((await raw('/api/organization/agent-readiness-summary')).text);
    expect((await cli(['readiness', 'summary'])).stdout).toContain('github.com/acme/web');
  });

  it('ci edit opens a pull request on a Git remote and ci prs lists it; a missing --file is a usage error', async () => {
    const remote = BareRemote.create();
    onCleanup(() => remote.remove());
    const workflow = path.join(root, 'lint.yml');
    writeFileSync(workflow, 'name: Lint\non: [pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run lint\n');
    const opened = await cli([
      'ci',
      'edit',
      '--repo',
      remote.url,
      '--action',
      'create',
      '--workflow',
      '.github/workflows/lint.yml',
      '--file',
      workflow,
      '--output',
      'json',
    ]);
    expect(opened.stderr).toBe('');
    const result = JSON.parse(opened.stdout) as { pullRequest: { number: number }; commitSha: string };
    expect(remote.branches().length).toBeGreaterThan(2);
    const prs = JSON.parse((await cli(['ci', 'prs', '--output', 'json'])).stdout) as { pullRequests: { number: number; commitSha: string }[] };
    expect(prs.pullRequests[0]).toMatchObject({ number: result.pullRequest.number, commitSha: result.commitSha });
    const usage = await cli(['ci', 'edit', '--repo', remote.url, '--action', 'edit', '--workflow', '.github/workflows/ci.yml']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--file is required');
  });
});

describe('failures, help and completion', () => {
  it('exit 3 when the service cannot be reached, 2 for usage; never a stack trace', async () => {
    const down = await runCli(['analytics', 'tokens'], {
      XDG_CONFIG_HOME: path.join(root, 'none'),
      ORGCTL_URL: 'http://127.0.0.1:1',
      ORGCTL_API_KEY: ownerKey,
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Cannot reach http://127.0.0.1:1');
    const unknown = await cli(['computers', 'list', '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    for (const r of [down, unknown]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help lists every flag of a command; completion scripts name the commands and their flags', async () => {
    const help = await cli(['analytics', 'tokens', '--help']);
    expect(help.code).toBe(0);
    for (const f of ['--from', '--to', '--group-by', '--breakdown', '--output', '--url', '--key']) expect(help.stdout).toContain(f);
    const top = await cli(['--help']);
    for (const c of ['analytics users', 'computers create', 'ci edit', 'limits audit', 'login']) expect(top.stdout).toContain(c);
    const bash = await cli(['completion', 'bash']);
    expect(bash.stdout).toContain('complete -F _orgctl orgctl');
    expect(bash.stdout).toMatch(/analytics\) subs="tokens tools activity productivity users repositories"/);
    expect(bash.stdout).toContain('"analytics tokens") flags="--from --to --group-by --breakdown');
    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.stdout).toContain('compdef _orgctl orgctl');
  });
});
