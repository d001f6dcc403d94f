import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { Receiver } from './receiver.js';

let t: TestApp;
let org: Org;
let slow: Receiver;
let fast: Receiver;

beforeAll(async () => {
  // The service's own clock and a running worker, as `orgctl serve` has them.
  t = await TestApp.start({ ciAllowPrivateNetwork: true, webhooksTickMs: 50 });
  org = await t.createOrg('slow-hooks');
  [slow, fast] = await Promise.all([Receiver.start(), Receiver.start()]);
  // The slow endpoint never answers: each delivery to it waits out the 10 s time-out.
  slow.answer = () => null;
  for (const url of [slow.url, fast.url]) {
    const res = await t.request('POST', '/api/v0/organization/webhooks', { key: org.ownerKey, body: { url, eventTypes: ['member.added'] } });
    expect(res.status).toBe(201);
  }
  t.services.deliveries.start();
});
afterAll(async () => {
  await slow?.close();
  await t?.services.deliveries.stop();
  await fast?.close();
  await t?.close();
});

it("a slow endpoint does not hold up other endpoints' next deliveries", async () => {
  await t.addUser(org, 'member', 'first@slow.test');
  await waitFor(async () => (slow.received.length === 1 && fast.received.length === 1) || undefined, 5000, 'the first event at both endpoints');
  // While the slow endpoint still holds the first event, the next one reaches the fast endpoint in a few ticks.
  const sent = Date.now();
  await t.addUser(org, 'member', 'second@slow.test');
  await waitFor(async () => fast.received.length === 2 || undefined, 5000, 'the second event at the fast endpoint');
  expect(Date.now() - sent).toBeLessThan(5000);
  expect(JSON.parse(fast.received[1]!.body)).toMatchObject({ type: 'member.added', data: { email: 'second@slow.test' } });
});
