import { describe, expect, it } from 'vitest';
import { STALL_BOUND_MS } from '../../src/core/http/heartbeat.js';
import { startServer } from '../helpers/cli.js';
import { INSPECTOR_URL, InspectorSession } from '../helpers/inspector.js';
import { installation } from '../helpers/installation.js';
import { probeHealth } from '../helpers/slow-clients.js';
import { waitFor } from '../helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * HEALTH_PORT is served by a thread of its own (src/core/http/health-thread.ts). Its main thread
 * held by a debugger is an event loop that does not turn at all, the far end of one kept busy by
 * a flood of big exports (bench/flood.ts measures that one), with nothing in the service made for
 * the test: the process is started with --inspect, and paused as a developer would pause it.
 */
describe('HEALTH_PORT while the main event loop does not turn', () => {
  it('answers /healthz 200 at once while the main port answers nothing, 503 once the loop has stood for 5 s, /readyz 503 after 2 s; 200 again once resumed; SIGTERM ends it with 0', async () => {
    const inspect = `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim();
    const server = await startServer({ ...(await installation()), HEALTH_PORT: '0', NODE_OPTIONS: inspect }, [], { startMs: 80_000 });
    let session: InspectorSession | undefined;
    try {
      const port = Number(new URL(server.url).port);
      const healthBase = /Health checks on (http:\/\/[^/\s]+)\/healthz/.exec(server.output())![1]!;
      const healthPort = Number(new URL(healthBase).port);
      expect((await probeHealth(healthPort, '127.0.0.3')).status).toBe(200);
      expect(await (await fetch(`${healthBase}/readyz`)).json()).toMatchObject({ status: 'ok' });

      session = await InspectorSession.connect(INSPECTOR_URL.exec(server.output())![1]!);
      await session.call('Debugger.enable');
      const paused = session.event('Debugger.paused');
      await session.call('Debugger.pause');
      // The main thread stops at its next JavaScript: the heartbeat's timer, within 200 ms at most.
      await paused;
      const pausedAt = Date.now();

      const mainProbe = probeHealth(port, '127.0.0.2', 2000);
      const probes = [];
      for (let i = 0; i < 5; i++) probes.push(await probeHealth(healthPort, '127.0.0.3', 2000));
      expect(probes.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
      // Loose for a loaded machine: the point is that they are answered at all, the main loop standing.
      expect(Math.max(...probes.map((p) => p.ms)), JSON.stringify(probes)).toBeLessThan(1000);
      expect((await mainProbe).status).toBe(0);

      // Readiness is asked of the main thread, which does not answer: 503 after READY_TIMEOUT_MS.
      const askedAt = Date.now();
      const notReady = await fetch(`${healthBase}/readyz`);
      expect(notReady.status).toBe(503);
      expect(Date.now() - askedAt).toBeGreaterThanOrEqual(1900);
      expect(await notReady.json()).toMatchObject({ status: 503, metadata: { code: 'database_unavailable' } });

      await sleep(Math.max(0, pausedAt + STALL_BOUND_MS + 300 - Date.now()));
      const stalled = await fetch(`${healthBase}/healthz`);
      expect(stalled.status).toBe(503);
      expect(stalled.headers.get('retry-after')).toBe('5');
      expect(await stalled.json()).toMatchObject({
        status: 503,
        metadata: { code: 'unavailable' },
        detail: expect.stringContaining('event loop has not turned'),
      });

      await session.call('Debugger.resume');
      await waitFor(async () => ((await probeHealth(healthPort, '127.0.0.3')).status === 200 ? true : undefined), 5000, 'a fresh heartbeat');
      expect((await probeHealth(port, '127.0.0.2')).status).toBe(200);
    } finally {
      session?.close();
      expect(await server.stop()).toBe(0);
    }
  }, 150_000);
});
