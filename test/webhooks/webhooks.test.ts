import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { createEndpoint, endpointDeliveries, WEBHOOKS as BASE, type EndpointView as Endpoint } from './api.js';
import { Receiver } from './receiver.js';
import { CATALOGUE } from '../../src/webhooks/catalogue.js';

let t: TestApp;
let org: Org;
let receiver: Receiver;
const clock = new TestClock();

beforeAll(async () => {
  t = await TestApp.start({ ciAllowPrivateNetwork: true }, { clock });
  org = await t.createOrg('hooks-org');
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

let n = 0;
/** Usage worth `credits` by the owner, which crosses thresholds of the owner's limit. */
async function use(credits: number): Promise<void> {
  const res = await t.request('POST', '/api/v1/telemetry/events', {
    key: org.ownerKey,
    body: {
      events: [
        {
          id: `e${n++}`,
          type: 'model_request',
          timestamp: clock.now().getTime() - 60_000,
          sessionId: 's',
          client: 'terminal-ui',
          model: 'claude-sonnet-4-5',
          tier: 'standard',
          inputTokens: credits / 1.2,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
      ],
    },
  });
  expect(res.status).toBe(202);
}

const create = (body: Record<string, unknown>) => createEndpoint(t, org.ownerKey, body);
const deliveries = (id: string) => endpointDeliveries(t, org.ownerKey, id);
const deliver = () => t.services.deliveries.tick();

describe('outbound webhooks', () => {
  let endpoint: Endpoint;

  beforeAll(async () => {
    expect((await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 1_200_000 } })).status).toBe(200);
    endpoint = await create({ url: receiver.url, eventTypes: ['usage.threshold_crossed', 'member.added'] });
  });

  it('shows the whsec_ secret once; members may not manage endpoints; URLs go through the network guard', async () => {
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await t.request<{ endpoints: Endpoint[] }>('GET', BASE, { key: org.ownerKey });
    expect(listed.body.endpoints).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
    expect(listed.raw).not.toContain('whsec_');
    const member = await t.addUser(org, 'member');
    expect((await t.request('GET', BASE, { key: member.key })).status).toBe(403);
    expect((await t.request('POST', BASE, { key: org.ownerKey, body: { url: 'ftp://example.com/x', eventTypes: ['member.added'] } })).status).toBe(400);
    expect((await t.request('POST', BASE, { key: org.ownerKey, body: { url: receiver.url, eventTypes: ['no.such'] } })).status).toBe(400);
    const guarded = await t.otherProcess({ ciAllowPrivateNetwork: false });
    try {
      const res = await guarded.inject({
        method: 'POST',
        url: BASE,
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: receiver.url, eventTypes: ['member.added'] }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain('private or internal address (127.0.0.1)');
    } finally {
      await guarded.close();
    }
  });

  it('delivers a threshold crossing signed as Standard Webhooks (verified by the reference package), retries a failure, and sends again on request', async () => {
    // The member added above is told first (member.added); this test is about what follows.
    await deliver();
    receiver.received.length = 0;
    let failFirst = true;
    receiver.answer = () => (failFirst ? ((failFirst = false), 503) : 200);
    await use(720_000); // 60 % of 1,200,000: the 50 % threshold
    await deliver();
    const crossings = async () => (await deliveries(endpoint.id)).filter((d) => d.type === 'usage.threshold_crossed');
    let log = await crossings();
    expect(log).toEqual([expect.objectContaining({ type: 'usage.threshold_crossed', status: 'pending', attempts: 1, lastStatusCode: 503 })]);
    await deliver(); // not due yet: nothing is sent
    expect(receiver.received).toHaveLength(1);
    clock.advance(5_000);
    await deliver();
    expect(receiver.received).toHaveLength(2);
    log = await crossings();
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    const [first, second] = receiver.received;
    // The same event id and body on every attempt.
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    const payload = new Webhook(endpoint.secret!).verify(second!.body, second!.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({
      type: 'usage.threshold_crossed',
      data: { scope: 'person', scopeId: org.ownerId, threshold: 50, limit: 1_200_000, used: 720_000 },
    });
    // What is sent is what the catalogue (and docs/webhooks.md) lists: no field more, none less.
    expect(Object.keys(payload.data).sort()).toEqual(Object.keys(CATALOGUE['usage.threshold_crossed'].data.properties).sort());
    // A wrong secret fails the reference verification.
    expect(() => new Webhook('whsec_' + Buffer.alloc(24).toString('base64')).verify(second!.body, second!.headers as Record<string, string>)).toThrow();

    const resend = await t.request('POST', `${BASE}/${endpoint.id}/deliveries/${log[0]!.id}/resend`, { key: org.ownerKey });
    expect(resend.status).toBe(202);
    await deliver();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(receiver.received[2]!.body).toBe(first!.body);
    expect((await t.request('POST', `${BASE}/${endpoint.id}/deliveries/${endpoint.id}/resend`, { key: org.ownerKey })).status).toBe(404);
  });

  it('a slack endpoint gets an incoming-webhook body and takes only the threshold event', async () => {
    expect((await t.request('POST', BASE, { key: org.ownerKey, body: { url: receiver.url, eventTypes: ['member.added'], format: 'slack' } })).status).toBe(400);
    const slack = await create({ url: receiver.url, eventTypes: ['usage.threshold_crossed'], format: 'slack' });
    receiver.received.length = 0;
    receiver.answer = () => 200;
    await use(300_000); // 85 %: the 80 % threshold
    await deliver();
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies).toContainEqual({ text: expect.stringMatching(/has used 80% of its monthly budget: 1,020,000 of 1,200,000 credits/) });
    expect(bodies).toContainEqual(expect.objectContaining({ type: 'usage.threshold_crossed' }));
    await t.request('DELETE', `${BASE}/${slack.id}`, { key: org.ownerKey });
  });

  it('retries with backoff for a day, then fails the delivery and disables an endpoint failing for a day', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 500;
    clock.advance(1000); // the delivery log's newest is then this one
    await use(240_000); // 105 %: the 100 % threshold
    for (let i = 0; i < 40 && (await deliveries(endpoint.id))[0]!.status === 'pending'; i++) {
      await deliver();
      clock.advance(4 * 3600_000);
    }
    const [last] = await deliveries(endpoint.id);
    expect(last).toMatchObject({ type: 'usage.threshold_crossed', status: 'failed', lastStatusCode: 500 });
    expect(last!.attempts).toBeGreaterThan(5);
    // Exponential: the first attempts come close together, the later ones hours apart.
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === last!.eventId)).toHaveLength(last!.attempts);
    const disabled = (await t.request<Endpoint>('GET', `${BASE}/${endpoint.id}`, { key: org.ownerKey })).body;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('failing for a day') });
    // A disabled endpoint is sent nothing new; enabling it again clears the streak.
    const sent = receiver.received.length;
    await t.addUser(org, 'member');
    clock.advance(4 * 3600_000);
    await deliver();
    expect(receiver.received).toHaveLength(sent);
    const enabled = await t.request<Endpoint>('PATCH', `${BASE}/${endpoint.id}`, { key: org.ownerKey, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
  });
});
