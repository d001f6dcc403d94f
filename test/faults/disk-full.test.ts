import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { onPostgres } from '../helpers/test-db.js';

// The embedded database on a small tmpfs, which the test then fills: mounting needs root, as CI has.
const canMount = process.getuid?.() === 0;
let dir: string | undefined;
let server: Server | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (dir) {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }
});

const hooks = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    type: 'hook',
    timestamp: '2026-10-01T10:00:00Z',
    sessionId: `s${i}`,
    client: 'web',
    event: 'Stop',
    matcher: '',
    command: `${'x'.repeat(150)}${i}`,
  }));

describe.skipIf(onPostgres || !canMount)('the embedded database on a full disk', { timeout: 120_000 }, () => {
  it('answers ingestion 503 with Retry-After, keeps serving reads, and stores again once space returns', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'orgctl-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=120m', 'tmpfs', dir]);
    server = await startServer({ DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' });
    const key = /Owner API key[^:]*: (ock_\w+)/.exec(server.output())![1]!;
    const post = (events: unknown[]) =>
      fetch(`${server!.url}/api/v1/telemetry/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
    // dd stops with "No space left on device", which is what it is for.
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${path.join(dir, 'filler')}`, 'bs=1M', 'count=200'], { stdio: 'ignore' });
    } catch {
      // the disk is full now
    }
    let refused: Response | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const res = await post(hooks(`full-${i}`, 1000));
      if (res.status !== 202) refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.headers.get('retry-after')).toBe('5');
    expect(await refused?.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    const me = await fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);

    rmSync(path.join(dir, 'filler'));
    const again = await post(hooks('after', 10));
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ accepted: 10, duplicates: 0 });
    expect(server.process.exitCode).toBeNull();
  });
});
