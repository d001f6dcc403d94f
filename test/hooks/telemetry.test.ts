import { Value } from '@sinclair/typebox/value';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookTelemetryEventSchema } from '../../src/hooks/schemas.js';
import { runEvent } from '../../src/hooks/run-event.js';
import { hookTelemetryEvents, reportHookEvents } from '../../src/hooks/telemetry.js';
import { assertFreshBuild, orgctl } from './cli-process.js';
import { plan, script, hooksDir, testEnv, writeJson } from './helpers.js';

/** A port nothing listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A port that accepts connections and never says a word: a hung service. */
let silent: Server;
const sockets: Socket[] = [];
let silentUrl: string;
let refusedUrl: string;

beforeAll(async () => {
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  refusedUrl = `http://127.0.0.1:${await closedPort()}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('hook telemetry events', () => {
  it('describes each hook that runs as a `hook` telemetry event', () => {
    const events = hookTelemetryEvents({
      sessionId: 's1',
      client: 'terminal-ui',
      event: 'PreToolUse',
      hooks: [{ ...plan('fmt'), matcher: 'Edit' }, plan('lint')],
      at: new Date('2026-03-01T10:00:00Z'),
    });
    expect(events.every((e) => Value.Check(HookTelemetryEventSchema, e))).toBe(true);
    expect(events.map(({ id: _id, ...rest }) => rest)).toEqual([
      { type: 'hook', timestamp: '2026-03-01T10:00:00.000Z', sessionId: 's1', client: 'terminal-ui', event: 'PreToolUse', matcher: 'Edit', command: 'fmt' },
      { type: 'hook', timestamp: '2026-03-01T10:00:00.000Z', sessionId: 's1', client: 'terminal-ui', event: 'PreToolUse', matcher: '', command: 'lint' },
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
  });
});

describe('telemetry with the service down', () => {
  const events = hookTelemetryEvents({ sessionId: 's', client: 'non-interactive-cli', event: 'Stop', hooks: [plan('x')], at: new Date() });

  it('gives up at once when the connection is refused', async () => {
    const t0 = performance.now();
    expect(await reportHookEvents({ url: refusedUrl, apiKey: 'k' }, events)).toEqual({ sent: false, error: 'ECONNREFUSED' });
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('gives up after its timeout when the service accepts and never answers', async () => {
    const t0 = performance.now();
    expect(await reportHookEvents({ url: silentUrl, apiKey: 'k' }, events, 300)).toMatchObject({ sent: false });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('does not change a run or its duration, and waits for a hung service only until the timeout', async () => {
    const dir = hooksDir();
    const config = writeJson(dir, 'h.json', {
      Stop: [{ hooks: [{ type: 'command', command: script(dir, 'block.sh', 'sleep 0.3; echo "not done" >&2; exit 2') }] }],
    });
    const options = {
      event: 'Stop' as const,
      files: [{ path: config, explicit: true }],
      cwd: dir,
      env: testEnv,
      client: 'terminal-ui' as const,
      sessionId: 's',
    };
    const quiet = await runEvent(options);
    const t0 = performance.now();
    const [hung, refused] = await Promise.all([
      runEvent({ ...options, telemetry: { url: silentUrl, apiKey: 'k' }, telemetryTimeoutMs: 1000 }),
      runEvent({ ...options, telemetry: { url: refusedUrl, apiKey: 'k' } }),
    ]);
    expect(performance.now() - t0).toBeLessThan(1500);
    for (const r of [hung, refused]) {
      expect({ ...r, durationMs: 0, hooks: [] }).toEqual({ ...quiet, durationMs: 0, hooks: [] });
      expect(r.hooks.map((h) => h.outcome)).toEqual(['block']);
      expect(r.durationMs).toBeLessThan(quiet.durationMs + 300);
    }
  });

  it('orgctl hooks run gives the same result, and exits at once with the service refusing or soon with it hung', async () => {
    assertFreshBuild();
    const dir = hooksDir();
    const file = writeJson(dir, 'h.json', { Stop: [{ hooks: [{ type: 'command', command: 'sleep 0.2; echo "not done" >&2; exit 2' }] }] });
    const args = ['hooks', 'run', 'Stop', '--config', file, '--session-id', 's1'];
    const [off, refused, hung] = await Promise.all([
      orgctl(args),
      orgctl(args, { env: { ORGCTL_URL: refusedUrl, ORGCTL_API_KEY: 'secret-key' } }),
      orgctl(args, { env: { ORGCTL_URL: silentUrl, ORGCTL_API_KEY: 'secret-key' } }),
    ]);
    const comparable = (r: { code: number | null; stdout: string }) => {
      const { durationMs, hooks, ...rest } = JSON.parse(r.stdout);
      return { code: r.code, rest, hooks: hooks.map((h: { durationMs: number }) => ({ ...h, durationMs: 0 })), durationMs };
    };
    for (const r of [refused, hung]) {
      expect({ ...comparable(r), durationMs: 0 }).toEqual({ ...comparable(off), durationMs: 0 });
      expect(comparable(r).durationMs).toBeLessThan(comparable(off).durationMs + 500);
      expect(r.stderr).toBe('');
    }
    expect(comparable(off).code).toBe(2);
    // Refused: no wait at all. Hung: the post is cut off 1.5 s after it started, alongside the hooks.
    expect(refused.ms).toBeLessThan(off.ms + 700);
    expect(hung.ms).toBeLessThan(off.ms + 2200);
  });
});
