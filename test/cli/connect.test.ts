import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAIN, spawnCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { MANAGED_SCOPES } from '../../src/client/managed-scopes.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl connect CLIENT` as a person runs it on their machine: HOME, CODEX_HOME and
// XDG_CONFIG_HOME point at a temporary directory that already holds settings of their own.

let root: string;
let server: Server;
let memberKey: string;
let serviceKey: string;
let fullServiceKey: string;
let ownerKey: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-connect-');
  const installed = await orgInstallation([
    { email: 'mia@acme.test' },
    { serviceAccount: 'mdm', role: 'manager', scopes: MANAGED_SCOPES },
    { serviceAccount: 'mdm-full', role: 'manager' },
  ]);
  memberKey = installed.keys['mia@acme.test']!;
  serviceKey = installed.keys.mdm!;
  fullServiceKey = installed.keys['mdm-full']!;
  ownerKey = installed.ownerKey;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
}, 180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed settings of many shapes, read by their paths
type Json = any;

/** A fresh machine of the person: its home, Codex's home, orgctl's configuration. */
function machine() {
  const dir = mkdtempSync(path.join(root, 'machine-'));
  const home = path.join(dir, 'home');
  const codexHome = path.join(dir, 'codex-home');
  mkdirSync(home);
  const cli = (args: string[], key = memberKey) =>
    spawnCli(args, {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        CODEX_HOME: codexHome,
        XDG_CONFIG_HOME: path.join(dir, 'config'),
        ORGCTL_URL: server.url,
        ORGCTL_API_KEY: key,
      },
    });
  return { dir, home, codexHome, cli };
}

const put = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const read = (file: string) => readFileSync(file, 'utf8');
const json = (file: string) => JSON.parse(read(file)) as Record<string, Json>;
const hook = (client: string, event: string) => `'${process.execPath}' '${MAIN}' guard ${event} --client ${client}`;
const commands = (hooks: Json[]) => hooks.flatMap((g: Json) => g.hooks.map((h: Json) => h.command));

/** Each client's files as a person already has them (other keys, some of which connect also sets), and what connect must write. */
const CLIENTS = {
  'claude-code': {
    files: (m: ReturnType<typeof machine>) => ({
      [path.join(m.home, '.claude', 'settings.json')]: JSON.stringify({
        model: 'opus',
        permissions: { allow: ['Bash(ls)'] },
        env: { FOO: 'bar', OTEL_METRICS_EXPORTER: 'console' },
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] },
      }),
    }),
    check(m: ReturnType<typeof machine>) {
      const s = json(path.join(m.home, '.claude', 'settings.json'));
      expect(s.model).toBe('opus');
      expect(s.permissions).toEqual({ allow: ['Bash(ls)'] });
      expect(s.env).toEqual({
        FOO: 'bar',
        OTEL_METRICS_EXPORTER: 'otlp',
        CLAUDE_CODE_ENABLE_TELEMETRY: '1',
        OTEL_LOGS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_ENDPOINT: server.url,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${memberKey}`,
      });
      expect(commands(s.hooks.Stop)).toEqual(['echo done']);
      expect(commands(s.hooks.UserPromptSubmit)).toEqual([hook('claude-code', 'prompt')]);
      expect(commands(s.hooks.SessionStart)).toEqual([hook('claude-code', 'repository')]);
      expect(s.statusLine).toEqual({ type: 'command', command: hook('claude-code', 'status-line') });
    },
  },
  codex: {
    files: (m: ReturnType<typeof machine>) => ({
      [path.join(m.codexHome, 'config.toml')]:
        '# mine\nmodel = "o3"\n\n[otel]\nenvironment = "dev"\nlog_user_prompt = false\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
      [path.join(m.codexHome, 'hooks.json')]: JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo start' }] }] } }),
    }),
    check(m: ReturnType<typeof machine>) {
      const c = parseToml(read(path.join(m.codexHome, 'config.toml'))) as Record<string, Json>;
      expect(c.model).toBe('o3');
      expect(c.mcp_servers).toEqual({ docs: { command: 'docs-mcp' } });
      const exporter = (signal: string) => ({
        'otlp-http': { endpoint: `${server.url}/v1/${signal}`, protocol: 'binary', headers: { Authorization: `Bearer ${memberKey}` } },
      });
      expect(c.otel).toEqual({ environment: 'dev', log_user_prompt: false, exporter: exporter('logs'), metrics_exporter: exporter('metrics') });
      const h = json(path.join(m.codexHome, 'hooks.json'));
      // The person's own SessionStart hook stays beside the one that records the session's repository.
      expect(commands(h.hooks.SessionStart)).toEqual(['echo start', hook('codex', 'repository')]);
      expect(commands(h.hooks.UserPromptSubmit)).toEqual([hook('codex', 'prompt')]);
      expect(existsSync(path.join(m.home, '.codex'))).toBe(false);
    },
  },
  'gemini-cli': {
    files: (m: ReturnType<typeof machine>) => ({
      [path.join(m.home, '.gemini', 'settings.json')]: JSON.stringify({ ui: { theme: 'dark' }, telemetry: { logPrompts: false } }),
      [path.join(m.home, '.gemini', '.env')]: '# mine\nGEMINI_API_KEY=abc\n',
    }),
    check(m: ReturnType<typeof machine>) {
      const s = json(path.join(m.home, '.gemini', 'settings.json'));
      expect(s.ui).toEqual({ theme: 'dark' });
      expect(s.telemetry).toEqual({ logPrompts: false, enabled: true, target: 'local', otlpEndpoint: server.url, otlpProtocol: 'http' });
      expect(commands(s.hooks.BeforeAgent)).toEqual([hook('gemini-cli', 'prompt')]);
      expect(commands(s.hooks.SessionStart)).toEqual([hook('gemini-cli', 'repository')]);
      expect(read(path.join(m.home, '.gemini', '.env'))).toBe(`# mine\nGEMINI_API_KEY=abc\nOTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer ${memberKey}"\n`);
    },
  },
  droid: {
    files: (m: ReturnType<typeof machine>) => ({
      [path.join(m.home, '.factory', 'settings.json')]: JSON.stringify({
        model: 'custom:stub',
        hooks: { PreToolUse: [{ matcher: 'Execute', hooks: [{ type: 'command', command: 'echo pre' }] }] },
      }),
    }),
    check(m: ReturnType<typeof machine>) {
      const s = json(path.join(m.home, '.factory', 'settings.json'));
      expect(s.model).toBe('custom:stub');
      expect(s.hooks.PreToolUse).toEqual([
        { matcher: 'Execute', hooks: [{ type: 'command', command: 'echo pre' }] },
        { matcher: '*', hooks: [{ type: 'command', command: hook('droid', 'tool') }] },
      ]);
      // Two hooks of connect at one event: each replaces only its own on a second connect.
      expect(commands(s.hooks.SessionStart)).toEqual([hook('droid', 'session-start'), hook('droid', 'repository')]);
    },
  },
} as const;

const parsed = (file: string, text: string) => (file.endsWith('.toml') ? parseToml(text) : file.endsWith('.json') ? JSON.parse(text) : text);

describe('orgctl connect CLIENT', () => {
  it.each(Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])(
    '%s: --print writes nothing; connect merges into the settings with a backup, twice changes nothing; --remove restores them',
    async (client) => {
      const m = machine();
      const before = CLIENTS[client].files(m);
      for (const [file, text] of Object.entries(before)) put(file, text);

      const printed = await m.cli(['connect', client, '--print']);
      expect(printed.stderr).toBe('');
      expect(printed.code).toBe(0);
      expect(printed.stdout).toContain(`guard ${client === 'droid' ? 'tool' : 'prompt'} --client ${client}`);
      for (const [file, text] of Object.entries(before)) expect(read(file)).toBe(text);

      const first = await m.cli(['connect', client]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      CLIENTS[client].check(m);
      for (const [file, text] of Object.entries(before)) expect(read(`${file}.orgctl-backup`)).toBe(text);
      if (client === 'gemini-cli') expect(first.stdout).toContain('Gemini CLI loads only the first .env it finds');
      if (client === 'codex') expect(first.stdout).toContain('config.toml: connected (the previous content is in');
      if (client === 'codex') expect(first.stdout).toContain('Its comments were not kept: see the backup.');
      if (client === 'droid') expect(first.stdout).toContain(`export OTEL_TELEMETRY_HEADERS='Authorization=Bearer ${memberKey}'`);

      const after = Object.fromEntries(Object.keys(before).map((f) => [f, read(f)]));
      const second = await m.cli(['connect', client]);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('already connected, unchanged');
      for (const [file, text] of Object.entries(after)) expect(read(file)).toBe(text);

      const removed = await m.cli(['connect', client, '--remove']);
      expect(removed.stderr).toBe('');
      expect(removed.code).toBe(0);
      for (const [file, text] of Object.entries(before)) expect(parsed(file, read(file))).toEqual(parsed(file, text));
    },
    60_000,
  );

  it('creates the files a client lacks, and --remove deletes them again', async () => {
    const m = machine();
    expect((await m.cli(['connect', 'gemini-cli'])).code).toBe(0);
    expect(json(path.join(m.home, '.gemini', 'settings.json')).telemetry.enabled).toBe(true);
    expect((await m.cli(['connect', 'gemini-cli', '--remove'])).code).toBe(0);
    expect(existsSync(path.join(m.home, '.gemini', 'settings.json'))).toBe(false);
    expect(existsSync(path.join(m.home, '.gemini', '.env'))).toBe(false);
  });

  it('refuses a malformed settings file and leaves every file untouched', async () => {
    const m = machine();
    const settings = path.join(m.home, '.claude', 'settings.json');
    put(settings, '{"env": {');
    const r = await m.cli(['connect', 'claude-code']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${settings} is not valid JSON`);
    expect(read(settings)).toBe('{"env": {');
    expect(existsSync(`${settings}.orgctl-backup`)).toBe(false);

    const hooks = path.join(m.codexHome, 'hooks.json');
    put(path.join(m.codexHome, 'config.toml'), 'model = \n');
    const t = await m.cli(['connect', 'codex']);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('is not valid TOML');
    expect(read(path.join(m.codexHome, 'config.toml'))).toBe('model = \n');
    expect(existsSync(hooks)).toBe(false);
  });

  it('--project writes the repository files, not the user ones; a missing directory is an error', async () => {
    const m = machine();
    const repo = path.join(m.dir, 'repo');
    mkdirSync(repo);
    expect((await m.cli(['connect', 'claude-code', '--project', repo])).code).toBe(0);
    expect((await m.cli(['connect', 'codex', '--project', repo])).code).toBe(0);
    expect(json(path.join(repo, '.claude', 'settings.local.json')).env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(server.url);
    expect((parseToml(read(path.join(repo, '.codex', 'config.toml'))) as Json).otel.exporter['otlp-http'].endpoint).toBe(`${server.url}/v1/logs`);
    expect(existsSync(path.join(m.home, '.claude'))).toBe(false);
    expect(existsSync(m.codexHome)).toBe(false);
    const missing = await m.cli(['connect', 'claude-code', '--project', path.join(m.dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('is not a directory');
  });

  it('--managed prints the organization-wide files with a service account key and the email placeholder, and writes nothing', async () => {
    const m = machine();
    const r = await m.cli(['connect', 'claude-code', '--managed', '--key', serviceKey]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const section = r.stdout.split('# /etc/claude-code/managed-settings.json\n')[1]!.split('\n\n')[0]!;
    const s = JSON.parse(section) as Record<string, Json>;
    expect(s.env).toMatchObject({
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${serviceKey}`,
      OTEL_RESOURCE_ATTRIBUTES: 'user.email=$USER_EMAIL',
      ORGCTL_URL: server.url,
    });
    expect(commands(s.hooks.UserPromptSubmit)).toEqual(['orgctl guard prompt --client claude-code --email "$USER_EMAIL"']);
    // The SessionStart record names the person, as the prompt hook does.
    expect(commands(s.hooks.SessionStart)).toEqual(['orgctl guard repository --client claude-code --email "$USER_EMAIL"']);
    expect(existsSync(path.join(m.home, '.claude'))).toBe(false);
    expect(s.env).not.toHaveProperty('ORGCTL_UNREACHABLE');
    // A closed policy travels with the settings, so each machine's guard is closed before its first answer.
    const setPolicy = (unreachable: string) =>
      fetch(`${server.url}/api/v0/organization/usage/enforcement`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'block', thresholds: [80, 95], unreachable }),
      });
    expect((await setPolicy('closed')).status).toBe(200);
    const closed = await m.cli(['connect', 'claude-code', '--managed', '--key', serviceKey]);
    expect(JSON.parse(closed.stdout.split('# /etc/claude-code/managed-settings.json\n')[1]!.split('\n\n')[0]!).env).toMatchObject({
      ORGCTL_UNREACHABLE: 'closed',
    });
    expect((await setPolicy('open')).status).toBe(200);

    const gemini = await m.cli(['connect', 'gemini-cli', '--managed', '--key', serviceKey]);
    expect(gemini.stdout).toContain('# /etc/gemini-cli/settings.json');
    expect(gemini.stdout).toContain("OTEL_RESOURCE_ATTRIBUTES='user.email=$USER_EMAIL'");
    const codex = await m.cli(['connect', 'codex', '--managed', '--key', serviceKey]);
    expect(codex.stdout).toContain('# /etc/codex/config.toml');
    const droid = await m.cli(['connect', 'droid', '--managed', '--key', serviceKey]);
    expect(droid.stdout).toContain('# /etc/factory/settings.json');
    // Droid takes the export from its system settings file (not from a person's): the key is there, not in the environment.
    expect(droid.stdout).toContain(`"Authorization": "Bearer ${serviceKey}"`);
    expect(droid.stdout).not.toContain('OTEL_TELEMETRY_HEADERS');
    expect(droid.stdout).toContain("OTEL_RESOURCE_ATTRIBUTES='user.email=$USER_EMAIL'");

    const own = await m.cli(['connect', 'claude-code', '--managed', '--key', memberKey]);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain("mia@acme.test's own");
  });

  it('--managed refuses a key of the full role, and says how to make one with only the scopes the hooks and exporters need', async () => {
    const m = machine();
    const r = await m.cli(['connect', 'claude-code', '--managed', '--key', fullServiceKey]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('That key has the scopes full');
    expect(r.stderr).toMatch(/orgctl keys create --principal-id [0-9a-f-]{36} --scopes allowance:read,sessions:attribute,telemetry:write/);
  });

  it('--status says which clients are connected and when the last export of their records arrived', async () => {
    const m = machine();
    expect((await m.cli(['connect', 'claude-code'])).code).toBe(0);
    const status = async () => JSON.parse((await m.cli(['connect', '--status', '--output', 'json'])).stdout).clients as Record<string, Json>[];
    const before = await status();
    expect(before.find((c) => c.client === 'claude-code')).toEqual({ client: 'claude-code', user: 'connected', lastExportAt: null });
    expect(before.find((c) => c.client === 'codex')).toEqual({ client: 'codex', user: 'not connected', lastExportAt: null });

    const sent = await fetch(`${server.url}/v1/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: `${Date.now()}000000`,
                    body: { stringValue: 'claude_code.user_prompt' },
                    attributes: [
                      { key: 'event.name', value: { stringValue: 'user_prompt' } },
                      { key: 'session.id', value: { stringValue: 'connect-status' } },
                      { key: 'event.sequence', value: { intValue: '1' } },
                      { key: 'prompt_length', value: { intValue: '5' } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const after = await status();
    const claude = after.find((c) => c.client === 'claude-code')!;
    expect(Math.abs(Date.parse(claude.lastExportAt) - Date.now())).toBeLessThan(60_000);
    expect(after.find((c) => c.client === 'codex')!.lastExportAt).toBeNull();
    const table = await m.cli(['connect', '--status']);
    expect(table.stdout).toMatch(/claude-code\s+connected\s+\d{4}-/);
    expect(table.stdout).toMatch(/gemini-cli\s+not connected\s+none yet/);
  });
});
