import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';
import { holdConnections, percentile, probeHealth, probeHealthUntil } from '../helpers/slow-clients.js';

/**
 * Clients that open connections and never finish a request, against a real
 * `orgctl serve` on loopback with short timeouts and small connection bounds, so that each case
 * takes seconds and a few hundred sockets. The flood comes from 127.0.0.1 and 127.0.0.3-6; the
 * health probe, as a load balancer's would, from 127.0.0.2.
 */
const TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' };

const running: { stop: () => void }[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.stop();
});

async function serve(env: Record<string, string>, openFiles?: number): Promise<{ server: Server; port: number; key: string }> {
  // A first start migrates a new database: slow on a busy machine.
  const server = await startServer({ ...(await installation()), ...env }, [], { openFiles, startMs: 80_000 });
  running.push({ stop: () => void server.stop() });
  const key = /Owner API key[^:]*: (ock_\w+)/.exec(server.output())![1]!;
  return { server, port: Number(new URL(server.url).port), key };
}

const alive = (server: Server) => server.process.exitCode === null && server.process.signalCode === null;
const waitUntil = async (ok: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return ok();
};

describe('slow clients', () => {
  it('closes connections that send no request, headers that never end and bodies that trickle, within the header and request timeouts; /healthz answers within 100 ms meanwhile', async () => {
    const { server, port, key } = await serve(TIMEOUTS);
    const t0 = Date.now();
    const groups = await Promise.all([
      holdConnections({ port, count: 50, behaviour: 'idle', from: '127.0.0.3' }),
      holdConnections({ port, count: 100, behaviour: 'slow-headers', from: '127.0.0.4' }),
      holdConnections({ port, count: 100, behaviour: 'slow-body', from: '127.0.0.5', headers: { authorization: `Bearer ${key}` } }),
    ]);
    running.push({ stop: () => groups.forEach((g) => g.release()) });
    const everyone = groups.flatMap((g) => g.held);
    expect(everyone.every((c) => c.connected)).toBe(true);

    const closed = waitUntil(() => everyone.every((c) => c.closedAt !== undefined), 6000);
    const health = await probeHealthUntil(port, closed);
    expect(await closed, `${groups.map((g) => g.open()).join(' + ')} connections still open after 6 s`).toBe(true);
    // A silent connection goes after 1 s; headers after 1 s and whole requests after 2 s (checked
    // every 100 ms) are answered 408 and let go a second later. 1.5 s of slack for a busy machine.
    const [idle, headers, bodies] = groups.map((g) => Math.max(...g.held.map((c) => c.closedAt! - t0)));
    expect(idle).toBeLessThan(1000 + 1500);
    expect(headers).toBeLessThan(1000 + 1000 + 1500);
    expect(bodies).toBeLessThan(2000 + 1000 + 1500);
    expect(health.failed).toBe(0);
    expect(percentile(health.ms, 50)).toBeLessThan(100);
    expect(alive(server)).toBe(true);
  }, 150_000);

  it('refuses connections past HTTP_MAX_CONNECTIONS_PER_ADDRESS and HTTP_MAX_CONNECTIONS at once, keeps those it holds, and serves again once they go', async () => {
    const { server, port } = await serve({
      ...TIMEOUTS,
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '5000',
      HTTP_MAX_CONNECTIONS: '200',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '80',
    });
    // One address asks for more than its share: the rest are closed at once, and another address is still served.
    const greedy = await holdConnections({ port, count: 120, behaviour: 'idle', from: '127.0.0.1' });
    running.push({ stop: greedy.release });
    expect(await waitUntil(() => greedy.open() === 80, 1000), `${greedy.open()} of 120 open from one address`).toBe(true);
    const probe = await probeHealth(port);
    expect(probe.status).toBe(200);
    expect(probe.ms).toBeLessThan(100);

    // Several addresses fill the process's bound: what comes past it is closed at once.
    const more = await Promise.all(['127.0.0.3', '127.0.0.4'].map((from) => holdConnections({ port, count: 80, behaviour: 'idle', from })));
    running.push({ stop: () => more.forEach((m) => m.release()) });
    expect(await waitUntil(() => greedy.open() + more[0]!.open() + more[1]!.open() === 200, 1000)).toBe(true);
    expect((await probeHealth(port)).status).toBe(0);
    expect(alive(server)).toBe(true);

    // Those held are let go by their header timeout; then every address is served again.
    greedy.release();
    more.forEach((m) => m.release());
    let again = await probeHealth(port, '127.0.0.1');
    for (let i = 0; i < 20 && again.status !== 200; i++) again = await probeHealth(port, '127.0.0.1');
    expect(again.status).toBe(200);
    expect(alive(server)).toBe(true);
  }, 150_000);

  it('a process allowed 256 open files survives 400 connections and answers /healthz after them (no EMFILE thrown from a timer)', async () => {
    // The pressure sampler runs here (the suite turns it off elsewhere): it read memory through a file, and threw EMFILE.
    const { server, port } = await serve({ ...TIMEOUTS, HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '1000' }, 256);
    const flood = await Promise.all(
      ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'].map((from) => holdConnections({ port, count: 100, behaviour: 'idle', from })),
    );
    running.push({ stop: () => flood.forEach((f) => f.release()) });
    // Long enough for several pressure samples at the limit.
    await new Promise((r) => setTimeout(r, 1500));
    expect(alive(server), server.output()).toBe(true);
    flood.forEach((f) => f.release());
    const probe = await probeHealth(port);
    expect(probe.status, server.output()).toBe(200);
    expect(alive(server)).toBe(true);
  }, 150_000);
});
