import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { remoteCli, runCli, spawnCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl users list` follows `orgctl login` as `keys` does: over the API when a service is
// configured, on the database with --local.

let root: string;
let server: Server;
let dbEnv: Record<string, string>;
let ownerKey: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-users-');
  const installed = await orgInstallation([
    { email: 'mia@acme.test', key: false },
    { serviceAccount: 'ci-bot', role: 'member', key: false },
  ]);
  dbEnv = installed.env;
  ownerKey = installed.ownerKey;
}, 180_000);

/** The CLI on another machine: logged in through ORGCTL_*, no database settings, in a directory of its own. */
const remote = (args: string[]) => remoteCli(args, { url: server.url, key: ownerKey, dir: root });

describe('users list', () => {
  it('--local reads the database even when a service is configured', async () => {
    const local = await runCli(['users', 'list', '--local', '--json'], { ...dbEnv, ORGCTL_URL: 'http://127.0.0.1:1', ORGCTL_API_KEY: 'ock_unused' });
    expect(local.stderr).toBe('');
    const body = JSON.parse(local.stdout) as { principals: { email: string | null; name: string }[] };
    expect(body.principals.map((p) => p.email ?? p.name).sort()).toEqual(['ci-bot', 'mia@acme.test', 'owner@acme.test']);
  });
});

describe('over the API, while the service holds the database', () => {
  // From here on the service runs (the tests above read the database it would hold).
  beforeAll(async () => {
    server = await startServer(dbEnv);
    onCleanup(() => server.stop());
  });

  it('logged in, users list lists the organization of the key', async () => {
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

  it("shows a name's control characters instead of passing them to the reader's terminal, in tables and in fields", async () => {
    // A title change, a screen clear, a carriage return over the row and a right-to-left override.
    const hostile = 'Eve\u001b]0;pwned\u0007\u001b[2J\rX\u202eY';
    await api('PATCH', '/api/v0/me', { name: hostile });
    for (const out of [(await remote(['users', 'list'])).stdout, (await remote(['me'])).stdout]) {
      expect(out).toContain('Eve␛]0;pwned␇␛[2J␍X\\u202eY');
      for (const raw of ['\u0007', '\u001b', '\r', '\u202e']) expect(out).not.toContain(raw);
    }
    expect(JSON.parse((await remote(['me', '--output', 'json'])).stdout)).toMatchObject({ name: hostile });
    await api('PATCH', '/api/v0/me', { name: 'Owner' });
  });
});

/** The service's API with the owner's key, for what the test sets up. */
async function api<T>(method: string, url: string, body?: unknown, key = ownerKey): Promise<T> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe("keys by holder name, invitations, one's own profile", () => {
  it('keys list names a service account by its name, a user by their email', async () => {
    const accounts = await api<{ serviceAccounts: { id: string; name: string }[] }>('GET', '/api/v0/organization/service-accounts');
    const bot = accounts.serviceAccounts.find((a) => a.name === 'ci-bot')!;
    await api('POST', '/api/v0/api-keys', { principalId: bot.id, name: 'bot key' });
    const table = await remote(['keys', 'list']);
    expect(table.stderr).toBe('');
    expect(table.stdout).toMatch(/bot key\s+.*ci-bot \(service account\)/);
    expect(table.stdout).not.toContain(bot.id);
    expect(table.stdout).toMatch(/owner@acme\.test/);
    const json = JSON.parse((await remote(['keys', 'list', '--output', 'json'])).stdout) as { apiKeys: { principalName: string; principalKind: string }[] };
    expect(json.apiKeys).toContainEqual(expect.objectContaining({ principalName: 'ci-bot', principalKind: 'service_account' }));
  });

  it('users invitations lists the pending invitations; users revoke-invitation revokes one', async () => {
    const made = await api<{ id: string }>('POST', '/api/v0/organization/invitations', { email: 'invited@acme.test', role: 'member' });
    const listed = await remote(['users', 'invitations']);
    expect(listed.stdout).toMatch(new RegExp(`${made.id}\\s+invited@acme\\.test\\s+member`));
    const revoked = await remote(['users', 'revoke-invitation', made.id]);
    expect(revoked.stderr).toBe('');
    expect(revoked.stdout).toBe(`Invitation ${made.id} revoked.\n`);
    expect((await remote(['users', 'invitations', '--output', 'json'])).stdout).toBe('{"invitations":[]}\n');
    const again = await remote(['users', 'revoke-invitation', made.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not found/i);
  });

  it("me update changes one's own name and email; a taken email exits 1; no flag is a usage error", async () => {
    const mia = await api<{ key: string }>('POST', '/api/v0/api-keys', { email: 'mia@acme.test' });
    const asMia = (args: string[]) =>
      spawnCli(args, {
        cwd: root,
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          DATA_DIR: '',
          DATABASE_URL: '',
          XDG_CONFIG_HOME: path.join(root, 'config'),
          ORGCTL_URL: server.url,
          ORGCTL_API_KEY: mia.key,
        },
      });
    const changed = await asMia(['me', 'update', '--name', 'Mia Wong', '--email', 'Mia.Wong@acme.test']);
    expect(changed.stderr).toBe('');
    expect(changed.stdout).toMatch(/name\s+Mia Wong\nemail\s+mia\.wong@acme\.test\nrole\s+member/);
    expect((await asMia(['me'])).stdout).toMatch(/email\s+mia\.wong@acme\.test/);
    const taken = await asMia(['me', 'update', '--email', 'owner@acme.test']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/already has the email owner@acme\.test/);
    expect((await asMia(['me', 'update'])).code).toBe(2);
  });
});
