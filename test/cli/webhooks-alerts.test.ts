import { parse } from 'csv-parse/sync';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { remoteCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { waitFor } from '../helpers/wait.js';
import { Receiver } from '../webhooks/receiver.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl webhooks …` and `orgctl alerts …` over the API against a running `orgctl serve`,
// whose own delivery queue sends to a real receiver.

let root: string;
let server: Server;
let ownerKey: string;
let receiver: Receiver;

beforeAll(async () => {
  root = tempDir('orgctl-cli-webhooks-');
  const installed = await orgInstallation();
  ownerKey = installed.ownerKey;
  receiver = await Receiver.start();
  onCleanup(() => receiver.close());
  server = await startServer({ ...installed.env, CI_ALLOW_PRIVATE_NETWORK: 'true', WEBHOOKS_TICK_MS: '50' });
  onCleanup(() => server.stop());
}, 180_000);

const cli = (args: string[], key = ownerKey) => remoteCli(args, { url: server.url, key, dir: root });

describe('orgctl webhooks and orgctl alerts', () => {
  it('registers an endpoint (secret shown once), delivers an alert to it, lists the deliveries and sends one again', async () => {
    const created = await cli(['webhooks', 'create', receiver.url, '--event', 'usage.threshold_crossed', '--output', 'json']);
    expect(created.stderr).toBe('');
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await cli(['webhooks', 'list'])).stdout).not.toContain('whsec_');

    const settings = await cli(['alerts', 'settings', '--person', '50', '--organization-budget', 'none']);
    expect(settings.stdout).toMatch(/person\s+50%/);
    expect((await cli(['limits', 'set', '--limit', '1000000'])).code).toBe(0);
    const res = await fetch(`${server.url}/api/v1/telemetry/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          {
            id: 'cli-1',
            type: 'model_request',
            timestamp: Date.now() - 60_000,
            sessionId: 's',
            client: 'terminal-ui',
            model: 'claude-sonnet-4-5',
            tier: 'standard',
            inputTokens: 500_000,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
          },
        ],
      }),
    });
    expect(res.status).toBe(202);
    const alerts = parse((await cli(['alerts', 'list', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(alerts).toEqual([expect.objectContaining({ scope: 'person', name: 'owner@acme.test', threshold: '50%', used: '600000', limit: '1000000' })]);

    await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 20_000, 'the delivery');
    const first = receiver.received[0]!;
    expect(new Webhook(endpoint.secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({ type: 'usage.threshold_crossed' });
    const log = await waitFor(
      async () => {
        const rows = parse((await cli(['webhooks', 'deliveries', endpoint.id, '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      },
      20_000,
      'the delivery recorded',
    );
    expect(log).toEqual([expect.objectContaining({ type: 'usage.threshold_crossed', attempts: '1', last: '200' })]);
    expect((await cli(['webhooks', 'resend', endpoint.id, log[0]!.id as string])).stdout).toMatch(/queued to be sent again/);
    await waitFor(async () => (receiver.received.length > 1 ? true : undefined), 20_000, 'the delivery sent again');
    expect(receiver.received[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);

    expect((await cli(['webhooks', 'update', endpoint.id, '--disable'])).stdout).toMatch(/enabled\s+no/);
    const missing = await cli(['webhooks', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/);
    expect((await cli(['webhooks', 'delete', endpoint.id])).code).toBe(0);
  });
});
