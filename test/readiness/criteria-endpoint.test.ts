import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITERIA, PILLARS } from '../../src/readiness/criteria.js';
import { TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/readiness-criteria';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('criteria-org');
});
afterAll(() => t?.close());

describe('GET /api/organization/readiness-criteria', () => {
  it('answers the whole readiness model to every role, guests included', async () => {
    const guest = await t.addUser(org, 'guest');
    for (const key of [org.ownerKey, guest.key]) {
      const res = await t.request<{ levelUp: number; pillars: string[]; criteria: { id: string; level: number; pillar: string }[] }>('GET', PATH, { key });
      expect(res.status).toBe(200);
      expect(res.body.levelUp).toBe(0.8);
      expect(res.body.pillars).toEqual([...PILLARS]);
      expect(res.body.criteria).toEqual(CRITERIA.map((c) => ({ ...c })));
    }
  });

  it('is 401 without a credential', async () => {
    expect((await t.request('GET', PATH)).status).toBe(401);
  });
});
