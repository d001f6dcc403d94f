import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/core/db/open-db.js';
import { startServer } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { Receiver } from '../webhooks/receiver.js';
import { onCleanup } from '../helpers/cleanup.js';

/**
 * SECRETS_KEY as a deployment meets it, through `orgctl serve` as a process: a webhook endpoint's
 * signing secret made before the key was set is sealed at the next start; deliveries are still
 * signed with it; a new first key (rotation) seals it again; and a start without the key that
 * sealed it stops with a message that says so, having changed nothing.
 */
const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');

let env: Record<string, string>;
let ownerKey: string;
let receiver: Receiver;

beforeAll(async () => {
  const installed = await orgInstallation();
  env = { ...installed.env, CI_ALLOW_PRIVATE_NETWORK: 'true', WEBHOOKS_TICK_MS: '50' };
  ownerKey = installed.ownerKey;
  receiver = await Receiver.start();
  onCleanup(() => receiver.close());
}, 120_000);

/** The stored secret, read with the service stopped (the embedded database is one process's). */
async function stored(): Promise<string> {
  const db = await openDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR ?? '', databasePoolSize: 1 });
  try {
    const [row] = await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints');
    return row!.secret;
  } finally {
    await db.close();
  }
}

/** Starts the service with `key` as SECRETS_KEY, runs `fn` against it, and stops it. */
async function withService(key: string | undefined, fn: (url: string) => Promise<void>): Promise<void> {
  const server = await startServer({ ...env, SECRETS_KEY: key ?? '' });
  try {
    await fn(server.url);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

const api = (url: string, method: string, p: string, body?: unknown) =>
  fetch(`${url}${p}`, {
    method,
    headers: { authorization: `Bearer ${ownerKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

let added = 0;
/** A new member (invited and accepted, as the invitation page does): a member.added delivery. */
async function addMember(url: string): Promise<void> {
  const invited = await api(url, 'POST', '/api/v0/organization/invitations', { email: `p${added++}@acme.test`, role: 'member' });
  expect(invited.status).toBe(201);
  const accepted = await fetch(`${url}/api/v0/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ token: ((await invited.json()) as { token: string }).token, password: 'a password 123' }),
  });
  expect(accepted.status).toBe(200);
}

/** Runs `cause` and waits for the delivery it makes; checks its signature with the reference package. */
async function deliveredAndVerified(cause: () => Promise<void>, secret: string): Promise<void> {
  const before = receiver.received.length;
  await cause();
  const until = Date.now() + 15_000;
  while (receiver.received.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const got = receiver.received[before];
  expect(got, 'no delivery arrived').toBeDefined();
  expect(() => new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).not.toThrow();
}

/** "Send again" of the endpoint's newest delivery. */
async function resend(url: string): Promise<void> {
  const base = `/api/v0/organization/webhooks/${endpointId}`;
  const log = (await (await api(url, 'GET', `${base}/deliveries`)).json()) as { deliveries: { id: string }[] };
  expect((await api(url, 'POST', `${base}/deliveries/${log.deliveries[0]!.id}/resend`)).status).toBeLessThan(300);
}

let endpointId: string;

describe('SECRETS_KEY: secrets the service reads back are sealed where they are stored', () => {
  let secret: string;

  it('a secret stored without a key is kept as given', async () => {
    await withService(undefined, async (url) => {
      const res = await api(url, 'POST', '/api/v0/organization/webhooks', { url: receiver.url, eventTypes: ['member.added'] });
      expect(res.status).toBe(201);
      ({ secret, id: endpointId } = (await res.json()) as { secret: string; id: string });
    });
    expect(await stored()).toBe(secret);
  });

  it('the next start with a key seals it, and deliveries are still signed with it', async () => {
    await withService(K1, (url) => deliveredAndVerified(() => addMember(url), secret));
    const sealed = await stored();
    expect(sealed).toMatch(/^sealed:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
  });

  it('a new first key seals it again at start (rotation); the old key may then go', async () => {
    const underK1 = await stored();
    await withService(`${K2},${K1}`, (url) => deliveredAndVerified(() => resend(url), secret));
    const underK2 = await stored();
    expect(underK2.split(':')[2]).not.toBe(underK1.split(':')[2]);
    await withService(K2, (url) => deliveredAndVerified(() => resend(url), secret));
  });

  it('a start without the key that sealed it stops with a message naming SECRETS_KEY, and changes nothing', async () => {
    const before = await stored();
    for (const key of [undefined, K1]) {
      const failed = await startServer({ ...env, SECRETS_KEY: key ?? '' }).then(
        (s) => s.stop().then(() => 'started'),
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/server exited with 1/);
      expect(failed).toMatch(/sealed with key [0-9a-f]{8}, which SECRETS_KEY does not hold/);
    }
    expect(await stored()).toBe(before);
  });

  it('a key that is not 32 bytes of base64 is refused as configuration', async () => {
    const failed = await startServer({ ...env, SECRETS_KEY: 'short' }).then(
      (s) => s.stop().then(() => 'started'),
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/SECRETS_KEY/);
  });
});
