import { describe, expect, it } from 'vitest';
import { startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

const MAX = 1_000_000_000_000;
const maximal = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    type: 'model_request',
    timestamp: '2026-10-02T10:00:00Z',
    sessionId: 's1',
    client: 'terminal-ui',
    model: 'gpt-5',
    tier: 'standard',
    inputTokens: MAX,
    outputTokens: MAX,
    cacheReadTokens: MAX,
    cacheWriteTokens: MAX,
  }));

describe('orgctl serve under telemetry whose sums it cannot keep', { timeout: 120_000 }, () => {
  it('answers 400 to each such batch and goes on serving, then stops cleanly', async () => {
    const env = await installation();
    const server = await startServer(env);
    try {
      const key = /Owner API key[^:]*: (ock_\w+)/.exec(server.output())![1]!;
      const post = (events: unknown[]) =>
        fetch(`${server.url}/api/v1/telemetry/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ events }),
        });
      expect((await post(maximal('one', 1000))).status).toBe(400);
      expect((await post(maximal('a', 500))).status).toBe(202);
      expect((await post(maximal('b', 500))).status).toBe(400);
      const me = await fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      expect(server.process.exitCode).toBeNull();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
