import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

let server: Server;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'orgctl-agent-install-'));
  server = await startServer(await installation());
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the host agent installs from the service itself', { timeout: 180_000 }, () => {
  it('GET /download/orgctl.tgz redirects to the versioned tarball: the build, no sources, no scripts', async () => {
    const redirect = await fetch(`${server.url}/download/orgctl.tgz`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const versioned = redirect.headers.get('location');
    expect(versioned).toMatch(/^\/download\/orgctl-\d+\.\d+\.\d+\.tgz$/);
    const res = await fetch(`${server.url}${versioned}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    const file = path.join(dir, 'orgctl.tgz');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const entries = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).split('\n');
    expect(entries).toContain('package/dist/main.js');
    expect(entries.some((e) => e.startsWith('package/src/') || e.startsWith('package/test/') || e.endsWith('.map'))).toBe(false);
    execFileSync('tar', ['xzf', file, '-C', dir, 'package/package.json']);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'orgctl', bin: { orgctl: 'dist/main.js' } });
    expect(manifest.scripts).toBeUndefined();
    expect((await fetch(`${server.url}/download/orgctl-0.0.1.tgz`)).status).toBe(404);
  });

  it('npm install -g URL gives a working orgctl agent, which talks to the service', () => {
    const prefix = path.join(dir, 'prefix');
    // From npm's cache where it can: the dependencies are the ones this checkout installed.
    const install = spawnSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', `${server.url}/download/orgctl.tgz`],
      { encoding: 'utf8', timeout: 170_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    const bin = path.join(prefix, 'bin', 'orgctl');
    expect(existsSync(bin)).toBe(true);
    const agent = spawnSync(bin, ['agent', '--url', server.url, '--key', 'ock_not_a_key', '--computer', 'laptop', '--workdir', path.join(dir, 'work')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(agent.status).toBe(1);
    expect(agent.stderr).toContain('the service answered 401');
  });
});
