import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, startServer, type Server } from '../helpers/cli.js';
import { fileInstallation } from '../helpers/installation.js';

// `orgctl users list` follows `orgctl login` as `keys` does: over the API when a service is
// configured, on the database with --local.

let root: string;
let server: Server;
let dbEnv: Record<string, string>;
let ownerKey: string;
const cleanups: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'orgctl-cli-users-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const installed = await fileInstallation(root);
  cleanups.push(installed.remove);
  dbEnv = installed.env;
  ownerKey = installed.ownerKey;
  expect((await runCli(['users', 'add', '--email', 'mia@acme.test', '--role', 'member', '--json'], dbEnv)).code).toBe(0);
  expect((await runCli(['service-accounts', 'add', '--name', 'ci-bot', '--role', 'member', '--json'], dbEnv)).code).toBe(0);
}, 180_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The CLI on another machine: logged in through ORGCTL_*, no database settings, in a directory of its own. */
const remote = (args: string[]) =>
  spawnCli(args, {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: '',
      DATABASE_URL: '',
      XDG_CONFIG_HOME: path.join(root, 'config'),
      ORGCTL_URL: server.url,
      ORGCTL_API_KEY: ownerKey,
    },
  });

describe('users list', () => {
  it('--local reads the database even when a service is configured', async () => {
    const local = await runCli(['users', 'list', '--local', '--json'], { ...dbEnv, ORGCTL_URL: 'http://127.0.0.1:1', ORGCTL_API_KEY: 'ock_unused' });
    expect(local.stderr).toBe('');
    const body = JSON.parse(local.stdout) as { principals: { email: string | null; name: string }[] };
    expect(body.principals.map((p) => p.email ?? p.name).sort()).toEqual(['ci-bot', 'mia@acme.test', 'owner@acme.test']);
  });

  it('logged in, it lists the organization of the key over the API, while the service holds the database', async () => {
    server = await startServer(dbEnv);
    cleanups.push(() => server.stop());
    const table = await remote(['users', 'list']);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/owner@acme\.test\s+.*owner/);
    expect(table.stdout).toMatch(/mia@acme\.test\s+.*member/);
    expect(table.stdout).toMatch(/service account\s+.*ci-bot\s+member/);

    const json = JSON.parse((await remote(['users', 'list', '--output', 'json'])).stdout) as {
      members: { email: string }[];
      serviceAccounts: { name: string }[];
    };
    expect(json.members.map((m) => m.email).sort()).toEqual(['mia@acme.test', 'owner@acme.test']);
    expect(json.serviceAccounts.map((a) => a.name)).toEqual(['ci-bot']);

    const csv = parse((await remote(['users', 'list', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(csv.find((r) => r.email === 'owner@acme.test')).toMatchObject({ kind: 'user', role: 'owner', keys: '1' });
  });
});
