import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, endpointDeliveries, getEndpoint } from './api.js';
import { Receiver } from './receiver.js';

let t: TestApp;
let org: Org;
let ok: Receiver;
let failing: Receiver;

beforeAll(async () => {
  // A tick far longer than the test: whatever is sent within it is sent by the rounds a backlog starts.
  t = await TestApp.start({ ciAllowPrivateNetwork: true, webhooksTickMs: 600_000 });
  org = await t.createOrg('backlog-hooks');
  [ok, failing] = await Promise.all([Receiver.start(), Receiver.start()]);
  failing.answer = () => 500;
});
afterAll(async () => {
  await t?.services.deliveries.stop();
  await Promise.all([ok?.close(), failing?.close()]);
  await t?.close();
});

const endpoint = (url: string) => createEndpoint(t, org.ownerKey, { url, eventTypes: ['member.added'] });
const get = (id: string) => getEndpoint(t, org.ownerKey, id);
const deliveries = (id: string) => endpointDeliveries(t, org.ownerKey, id);

it('a backlog larger than the places is sent without waiting for the next tick, and every outcome is recorded', async () => {
  const good = await endpoint(ok.url);
  const bad = await endpoint(failing.url);
  for (let i = 0; i < 15; i++) await t.addUser(org, 'member', `m${i}@backlog.test`);
  // 30 deliveries due at once, 8 places: the first round fills them, and each freed place starts the next round.
  t.services.deliveries.start();
  await waitFor(async () => (ok.received.length === 15 && failing.received.length === 15) || undefined, 10_000, 'all 30 deliveries sent');
  await t.services.deliveries.stop();
  expect(new Set(ok.received.map((r) => r.headers['webhook-id'])).size).toBe(15);
  const goodLog = await deliveries(good.id);
  expect(goodLog).toHaveLength(15);
  expect(goodLog.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.lastStatusCode === 200)).toBe(true);
  const badLog = await deliveries(bad.id);
  expect(badLog.every((d) => d.status === 'pending' && d.attempts === 1 && d.lastStatusCode === 500)).toBe(true);
  // Recorded together, each endpoint's streak follows its own outcomes.
  expect((await get(bad.id)).failingSince).toEqual(expect.any(Number));
  expect((await get(good.id)).failingSince).toBeNull();
});
