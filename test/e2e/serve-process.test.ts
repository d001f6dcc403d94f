import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { onPostgres } from '../helpers/test-db.js';

const call = (url: string, key: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });

describe('orgctl as a process', { timeout: 120_000 }, () => {
  it('init --json, serve, a real call, SIGTERM exits 0, and the data survives a restart', async () => {
    const env = await installation();
    const init = await runCli(['init', '--org', 'acme', '--owner-email', 'owner@acme.test', '--json'], env);
    expect(init.code).toBe(0);
    const created = JSON.parse(init.stdout) as { orgId: string; userId: string; apiKey: string };
    expect(created.apiKey).toMatch(/^ock_/);

    const added = await runCli(['users', 'add', '--email', 'mia@acme.test', '--role', 'manager', '--json'], env);
    expect(added.code).toBe(0);
    const key = await runCli(['keys', 'create', '--email', 'mia@acme.test', '--json'], env);
    const miaKey = (JSON.parse(key.stdout) as { apiKey: string }).apiKey;

    const first = await startServer(env);
    expect(first.output()).not.toContain('First start');
    const me = await call(`${first.url}/api/v0/me`, miaKey);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'mia@acme.test', role: 'manager', organization: { id: created.orgId, name: 'acme' } });
    const put = await call(`${first.url}/api/v0/organization/usage/limits/global`, created.apiKey, {
      method: 'PUT',
      body: JSON.stringify({ limit: 3_000_000 }),
    });
    expect(put.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startServer(env);
    try {
      const got = await call(`${second.url}/api/v0/organization/usage/limits/global`, miaKey);
      expect(await got.json()).toEqual({ limit: 3_000_000 });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('a first start on an empty database creates an organization and prints a working key and curl line', async () => {
    const env = await installation();
    const server = await startServer(env);
    try {
      const out = server.output();
      const key = /Owner API key[^:]*: (ock_\w+)/.exec(out)?.[1];
      expect(key).toBeDefined();
      expect(out).toContain(`curl -H "Authorization: Bearer ${key}" ${server.url}/api/v0/me`);
      expect(out).toContain('For demo data, start on an empty data directory with --demo');
      const me = await call(`${server.url}/api/v0/me`, key!);
      expect(me.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('serve --demo on a first start seeds demo telemetry, so the printed analytics call returns numbers; later starts leave the data alone', async () => {
    const env = await installation();
    const server = await startServer(env, ['--demo']);
    try {
      const out = server.output();
      const m = /Demo data: 12 users and (\d+) telemetry events from (\S+) to (\S+):\n\s+curl -H "Authorization: Bearer (ock_\w+)" "([^"]+)"/.exec(out);
      expect(m, out).not.toBeNull();
      const [, count, firstDay, lastDay, key, url] = m!;
      expect(Number(count)).toBeGreaterThan(1000);
      expect(url).toBe(`${server.url}/api/v1/analytics/activity?startDate=${firstDay}&endDate=${lastDay}`);
      const res = await call(url!, key!);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { daily_active_users: number; sessions: number }[] };
      expect(body.data).toHaveLength(60);
      expect(Math.max(...body.data.map((d) => d.daily_active_users))).toBeGreaterThan(1);
      expect(body.data.reduce((s, d) => s + d.sessions, 0)).toBeGreaterThan(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const again = await startServer(env, ['--demo']);
    try {
      expect(again.output()).toContain('--demo seeds only a first start');
      expect(again.output()).not.toContain('Demo data:');
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const env = await installation();
    const init = await runCli(['init', '--org', 'acme', '--owner-email', 'owner@acme.test', '--json'], env);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
    const server = await startServer(env);
    const body = JSON.stringify({ limit: 4_000_000 });
    let exited: Promise<number | null> | undefined;
    const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v0/organization/usage/limits/global`,
        { method: 'PUT', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (r) => {
          let text = '';
          r.on('data', (d) => (text += d));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now; SIGTERM; the rest of the body after the server was told to stop.
      req.write(body.slice(0, 5));
      setTimeout(() => {
        exited = server.stop();
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ limit: 4_000_000 });
    expect(await exited).toBe(0);
  });

  it('orgctl openapi prints the whole document through a pipe, equal to the committed openapi.json', async () => {
    const out = await runCli(['openapi'], {});
    expect(out.code).toBe(0);
    expect(out.stdout.length).toBeGreaterThan(64 * 1024); // past one pipe buffer: an early exit would cut it
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')));
  });

  it('usage errors exit 2 with a message; a duplicate user exits 1', async () => {
    const env = await installation();
    const missing = await runCli(['init', '--org', 'x'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--owner-email');
    await runCli(['init', '--org', 'x', '--owner-email', 'o@x.test'], env);
    const badRole = await runCli(['users', 'add', '--email', 'a@x.test', '--role', 'admin'], env);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be one of');
    const dup = await runCli(['users', 'add', '--email', 'O@X.test', '--role', 'member'], env);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
  });

  it.skipIf(onPostgres)('a second process on the same embedded data directory is refused', async () => {
    const env = await installation();
    const server = await startServer(env);
    try {
      const second = await runCli(['users', 'add', '--email', 'b@x.test', '--role', 'member'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/in use by process \d+/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
