import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { createEndpoint, endpointDeliveries, getEndpoint } from './api.js';
import { Receiver } from './receiver.js';

let t: TestApp;
let org: Org;
let failThenSucceed: Receiver;
let succeedThenFail: Receiver;

beforeAll(async () => {
  // A tick far longer than the test: the outcomes are recorded together, when the worker stops.
  t = await TestApp.start({ ciAllowPrivateNetwork: true, webhooksTickMs: 600_000 });
  org = await t.createOrg('streak-order');
  [failThenSucceed, succeedThenFail] = await Promise.all([Receiver.start(), Receiver.start()]);
  // Of each endpoint's two deliveries, the first to arrive is answered at once, the second 300 ms
  // later (the endpoint's own answers are the only real delay; the test's clock is the system's).
  const answers = (first: number, second: number) => {
    let n = 0;
    return async () => (n++ === 0 ? first : (await sleep(300), second));
  };
  failThenSucceed.answer = answers(500, 200);
  succeedThenFail.answer = answers(200, 503);
});
afterAll(async () => {
  await t?.services.deliveries.stop();
  await Promise.all([failThenSucceed?.close(), succeedThenFail?.close()]);
  await t?.close();
});

const endpoint = (url: string) => createEndpoint(t, org.ownerKey, { url, eventTypes: ['member.added'] });
const get = (id: string) => getEndpoint(t, org.ownerKey, id);
const deliveries = (id: string) => endpointDeliveries(t, org.ownerKey, id);

it("outcomes recorded in one batch set each endpoint's failing streak in the order they happened", async () => {
  const recovering = await endpoint(failThenSucceed.url);
  const breaking = await endpoint(succeedThenFail.url);
  await t.addUser(org, 'member', 'first@streak.test');
  await t.addUser(org, 'member', 'second@streak.test');
  t.services.deliveries.start();
  await waitFor(async () => (failThenSucceed.received.length === 2 && succeedThenFail.received.length === 2) || undefined, 10_000, 'all four sent');
  // Stopping waits for the sends to end, then records their four outcomes in one statement.
  await t.services.deliveries.stop();

  const recovered = await deliveries(recovering.id);
  expect(recovered.map((d) => d.lastStatusCode).sort()).toEqual([200, 500]);
  // A failure then a success: the success ends the streak it started.
  expect((await get(recovering.id)).failingSince).toBeNull();

  const broken = await deliveries(breaking.id);
  expect(broken.map((d) => d.lastStatusCode).sort()).toEqual([200, 503]);
  const failed = broken.find((d) => d.lastStatusCode === 503)!;
  const succeeded = broken.find((d) => d.lastStatusCode === 200)!;
  expect(failed.lastAttemptAt!).toBeGreaterThan(succeeded.lastAttemptAt!);
  // A success then a failure: the streak starts at the failure.
  expect((await get(breaking.id)).failingSince).toBe(failed.lastAttemptAt);
});
