import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint } from './api.js';
import { Receiver } from './receiver.js';

let t: TestApp;
let noisy: Org;
let quiet: Org;
let hanging: Receiver;
let healthy: Receiver;

beforeAll(async () => {
  // The service's own clock and a running worker, as `orgctl serve` has them.
  t = await TestApp.start({ ciAllowPrivateNetwork: true, webhooksTickMs: 50 });
  [noisy, quiet] = await Promise.all([t.createOrg('noisy-hooks'), t.createOrg('quiet-hooks')]);
  [hanging, healthy] = await Promise.all([Receiver.start(), Receiver.start()]);
  // Never answers: each delivery to it holds its place for the whole 10 s time-out.
  hanging.answer = () => null;
  await createEndpoint(t, noisy.ownerKey, { url: hanging.url, eventTypes: ['member.added'] });
  await createEndpoint(t, quiet.ownerKey, { url: healthy.url, eventTypes: ['member.added'] });
});
afterAll(async () => {
  await hanging?.close();
  await t?.services.deliveries.stop();
  await healthy?.close();
  await t?.close();
});

it("one organization's hanging endpoint and backlog take at most half the places; another organization's event goes out at once", async () => {
  // A backlog older than the other organization's event: oldest-first alone would give it every place.
  for (let i = 0; i < 12; i++) await t.addUser(noisy, 'member', `m${i}@noisy.test`);
  await t.addUser(quiet, 'member', 'first@quiet.test');
  const started = Date.now();
  t.services.deliveries.start();
  await waitFor(async () => healthy.received.length === 1 || undefined, 5000, "the quiet organization's first event");
  expect(Date.now() - started).toBeLessThan(5000);
  // 4 of the 8 places, however many of its deliveries are due.
  await waitFor(async () => hanging.received.length === 4 || undefined, 2000, 'the noisy organization at its share');
  // While the noisy organization still holds its share, the next event of the quiet one goes in a few ticks.
  const sent = Date.now();
  await t.addUser(quiet, 'member', 'second@quiet.test');
  await waitFor(async () => healthy.received.length === 2 || undefined, 5000, "the quiet organization's second event");
  expect(Date.now() - sent).toBeLessThan(5000);
  expect(hanging.received).toHaveLength(4);
  expect(JSON.parse(healthy.received[1]!.body)).toMatchObject({ type: 'member.added', data: { email: 'second@quiet.test' } });
});
