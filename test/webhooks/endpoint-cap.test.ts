import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { createEndpoint, WEBHOOKS } from './api.js';

let t: TestApp;
let org: Org;
let other: Org;

beforeAll(async () => {
  t = await TestApp.start({ ciAllowPrivateNetwork: true });
  [org, other] = await Promise.all([t.createOrg('capped-hooks'), t.createOrg('other-hooks')]);
});
afterAll(async () => {
  await t?.close();
});

const body = (i: number) => ({ url: `http://127.0.0.1:9/hook/${i}`, eventTypes: ['member.added'] });
const create = (key: string, i: number) => t.request('POST', WEBHOOKS, { key, body: body(i) });

it('an organization has at most 20 endpoints: the 21st is refused with 409 quota_reached, also when created at once', async () => {
  for (let i = 0; i < 18; i++) await createEndpoint(t, org.ownerKey, body(i));
  // Five at once for the last two places: the count and the insert are one step, so exactly two land.
  const racing = await Promise.all([18, 19, 20, 21, 22].map((i) => create(org.ownerKey, i)));
  expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
  const refused = await create(org.ownerKey, 23);
  const error = expectErrorObject(refused, 409);
  expect(error.metadata).toMatchObject({ code: 'quota_reached', limit: 20 });
  expect(error.detail).toBe('The organization already has 20 webhook endpoints, the most it may have; delete one before adding another.');
  const listed = await t.request<{ endpoints: { id: string }[] }>('GET', WEBHOOKS, { key: org.ownerKey });
  expect(listed.body.endpoints).toHaveLength(20);
  // Another organization's endpoints do not count; a deleted one frees its place.
  expect((await create(other.ownerKey, 0)).status).toBe(201);
  expect((await t.request('DELETE', `${WEBHOOKS}/${listed.body.endpoints[0]!.id}`, { key: org.ownerKey })).status).toBe(204);
  expect((await create(org.ownerKey, 24)).status).toBe(201);
  expect((await create(org.ownerKey, 25)).status).toBe(409);
});
