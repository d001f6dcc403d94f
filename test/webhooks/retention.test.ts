import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { createEndpoint, endpointDeliveries, WEBHOOKS } from './api.js';
import { Receiver } from './receiver.js';

const DAY = 86_400_000;
let t: TestApp;
let org: Org;
let ok: Receiver;
let failing: Receiver;
const clock = new TestClock();

beforeAll(async () => {
  t = await TestApp.start({ ciAllowPrivateNetwork: true }, { clock });
  org = await t.createOrg('retained-hooks');
  [ok, failing] = await Promise.all([Receiver.start(), Receiver.start()]);
  failing.answer = () => 500;
});
afterAll(async () => {
  await Promise.all([ok?.close(), failing?.close()]);
  await t?.close();
});

const deliver = () => t.services.deliveries.tick();
const log = async (endpointId: string) => (await endpointDeliveries(t, org.ownerKey, endpointId)).map((d) => [d.eventId, d.status]);
const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

it('prunes delivered events, deliveries and attempts after 30 days and failed ones after 90, keeping the rest', async () => {
  const good = await createEndpoint(t, org.ownerKey, { url: ok.url, eventTypes: ['member.added'] });
  const bad = await createEndpoint(t, org.ownerKey, { url: failing.url, eventTypes: ['member.added'] });
  await t.addUser(org, 'member', 'old@retained.test');
  await deliver();
  const [oldEvent] = (await endpointDeliveries(t, org.ownerKey, good.id)).map((d) => d.eventId);
  // Past its day of retries the failing delivery fails for good (and its endpoint is disabled).
  clock.advance(DAY + 3600_000);
  await deliver();
  expect(await log(bad.id)).toEqual([[oldEvent, 'failed']]);
  const [failed] = await endpointDeliveries(t, org.ownerKey, bad.id);

  clock.advance(19 * DAY);
  await t.addUser(org, 'member', 'recent@retained.test');
  await deliver();
  const recentEvent = (await endpointDeliveries(t, org.ownerKey, good.id))[0]!.eventId;
  expect(await count('webhook_attempts')).toBe(4);

  // 30 days and an hour after the first delivery succeeded, 10 days after the second.
  clock.advance(10 * DAY);
  await deliver();
  expect(await log(good.id)).toEqual([[recentEvent, 'succeeded']]);
  expect(await log(bad.id)).toEqual([[oldEvent, 'failed']]);
  // The failed delivery keeps its event and attempts; the pruned one's attempt went with it.
  expect(await count('webhook_events')).toBe(2);
  expect(await count('webhook_attempts')).toBe(3);

  // 90 days after the failed delivery's last attempt, it goes too, and with it the event no delivery is left of.
  clock.advance(62 * DAY);
  await deliver();
  expect(await log(good.id)).toEqual([]);
  expect(await log(bad.id)).toEqual([]);
  expect(await count('webhook_events')).toBe(0);
  expect(await count('webhook_attempts')).toBe(0);
  // What was pruned cannot be sent again.
  expect((await t.request('POST', `${WEBHOOKS}/${bad.id}/deliveries/${failed!.id}/resend`, { key: org.ownerKey })).status).toBe(404);

  // A deleted endpoint takes its deliveries at once; the event left without any goes after 30 days.
  expect((await t.request('PATCH', `${WEBHOOKS}/${good.id}`, { key: org.ownerKey, body: { enabled: false } })).status).toBe(200);
  const dropped = await createEndpoint(t, org.ownerKey, { url: ok.url, eventTypes: ['member.added'] });
  await t.addUser(org, 'member', 'dropped@retained.test');
  await deliver();
  expect((await t.request('DELETE', `${WEBHOOKS}/${dropped.id}`, { key: org.ownerKey })).status).toBe(204);
  expect(await count('webhook_deliveries')).toBe(0);
  clock.advance(29 * DAY);
  await deliver();
  expect(await count('webhook_events')).toBe(1);
  clock.advance(2 * DAY);
  await deliver();
  expect(await count('webhook_events')).toBe(0);
});
