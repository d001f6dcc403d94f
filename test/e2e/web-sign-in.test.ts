import { describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('web sign-in from the command line', { timeout: 120_000 }, () => {
  it('serve prints a setup URL until the owner has a password; users invite prints a one-time link that signs the person in', async () => {
    const env = await installation();
    const first = await startServer(env);
    let token: string;
    try {
      const m = new RegExp(`  ${first.url}/setup#token=([A-Za-z0-9_-]{43})\\n`).exec(first.output());
      expect(m).not.toBeNull();
      token = m![1]!;
      const setup = await post(`${first.url}/api/v0/session/setup`, { token, password: 'owner password 1' });
      expect(setup.status).toBe(200);
      expect(setup.headers.get('set-cookie')).toMatch(/^__Host-orgctl_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax/);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const invite = await runCli(['users', 'invite', '--email', 'Kai@Example.com', '--role', 'manager', '--json'], { ...env, PORT: '8123' });
    expect(invite.code).toBe(0);
    const made = JSON.parse(invite.stdout) as { email: string; role: string; url: string; expiresAt: string };
    expect(made).toMatchObject({ email: 'kai@example.com', role: 'manager' });
    expect(made.url).toMatch(/^http:\/\/127\.0\.0\.1:8123\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);

    const second = await startServer(env);
    try {
      expect(second.output()).not.toContain('/setup#token=');
      expect((await post(`${second.url}/api/v0/session/setup`, { token, password: 'another password' })).status).toBe(403);
      const linkToken = made.url.split('/invite/')[1];
      const accepted = await post(`${second.url}/api/v0/invitations/accept`, { token: linkToken, password: 'manager password 1' });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toMatchObject({ email: 'kai@example.com', role: 'manager', credential: 'session' });
      const login = await post(`${second.url}/api/v0/session/login`, { email: 'kai@example.com', password: 'manager password 1' });
      expect(login.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('only the setup URL of the latest start works: a restart replaces the token printed before', async () => {
    const env = await installation();
    const tokenOf = (server: { url: string; output(): string }) => new RegExp(`  ${server.url}/setup#token=([A-Za-z0-9_-]{43})\\n`).exec(server.output())![1]!;
    const first = await startServer(env);
    const earlier = tokenOf(first);
    expect(await first.stop()).toBe(0);
    const second = await startServer(env);
    try {
      const latest = tokenOf(second);
      expect(latest).not.toBe(earlier);
      expect((await post(`${second.url}/api/v0/session/setup`, { token: earlier, password: 'owner password 1' })).status).toBe(403);
      expect((await post(`${second.url}/api/v0/session/setup`, { token: latest, password: 'owner password 1' })).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('with APP_PORT the pages and their API calls share the application address, which hands the calls to the API', async () => {
    const env = await installation();
    const server = await startServer({ ...env, APP_PORT: '0', ORGCTL_SETUP_TOKEN: 'split-listeners-setup-token' });
    try {
      const appUrl = /Application address \(readiness reports\) on (http:\/\/[^\s]+)/.exec(server.output())![1]!;
      expect(appUrl).not.toBe(server.url);
      expect(server.output()).toContain(`  ${appUrl}/setup#token=split-listeners-setup-token\n`);
      const page = await fetch(`${appUrl}/settings/profile`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const setup = await post(`${appUrl}/api/v0/session/setup`, { token: 'split-listeners-setup-token', password: 'owner password 1' });
      expect(setup.status).toBe(200);
      const { csrfToken } = (await setup.json()) as { csrfToken: string };
      const cookie = setup.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const created = await fetch(`${appUrl}/api/v0/api-keys`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ name: 'split' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      expect((await fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const refused = await fetch(`${appUrl}/api/v0/api-keys`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', 'x-csrf-token': csrfToken },
        body: '{}',
      });
      expect(refused.status).toBe(403);
      const missing = await fetch(`${appUrl}/api/v0/nothing`);
      const body = (await missing.json()) as { status: number; requestId: string };
      expect([missing.status, body.status, body.requestId]).toEqual([404, 404, missing.headers.get('x-request-id')]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
