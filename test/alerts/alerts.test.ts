import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;

type User = { id: string; key: string; email: string };
type Alert = { id: string; scope: string; scopeId: string; scopeName: string; threshold: number; limit: number; used: number; periodStart: string };

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('alerts-org');
});
afterAll(() => t?.close());

/** Days back this month that batches may be dated: batches of different days share no rollup row, so only the alerts' own locks order them. */
const DAYS_BACK = Math.min(3, new Date().getUTCDate());

/** One batch of model requests worth `credits` in all (claude-sonnet-4-5: 1.2 credits an input token), a minute ago less `daysBack` days. */
async function use(user: User, credits: number, id: string, daysBack = 0): Promise<void> {
  const res = await t.request('POST', '/api/v1/telemetry/events', {
    key: user.key,
    body: {
      events: [
        {
          id,
          type: 'model_request',
          timestamp: Date.now() - 60_000 - daysBack * 86_400_000,
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

const alerts = async (key: string, query = '') => {
  const res = await t.request<{ alerts: Alert[]; nextCursor: string | null }>('GET', `/api/v0/alerts${query}`, { key });
  expect(res.status).toBe(200);
  return res.body.alerts;
};

describe('alerts as usage is ingested', () => {
  let ana: User, ben: User, cleo: User, outsider: User;
  let teamId: string;

  beforeAll(async () => {
    [ana, ben, cleo, outsider] = await Promise.all([t.addUser(org, 'member'), t.addUser(org, 'member'), t.addUser(org, 'member'), t.addUser(org, 'member')]);
    const team = await t.request<{ id: string }>('POST', '/api/v0/organization/teams', {
      key: org.ownerKey,
      body: { name: 'Platform', userIds: [ana.id, ben.id, cleo.id] },
    });
    teamId = team.body.id;
    expect((await t.request('PUT', `/api/v0/organization/usage/limits/teams/${teamId}`, { key: org.ownerKey, body: { limit: 3_000_000 } })).status).toBe(200);
  });

  it('concurrent batches of three members crossing the team budget make exactly one alert per threshold, each when it was crossed', async () => {
    // 30 batches of 150,000 credits (4,500,000 in all), sent at once by three members: 50 %, 80 % and 100 % of 3,000,000 are crossed in between.
    const members = [ana, ben, cleo];
    await Promise.all(Array.from({ length: 30 }, (_, i) => use(members[i % 3]!, 150_000, `team-${i}`, Math.floor(i / 3) % DAYS_BACK)));
    const team = (await alerts(org.ownerKey)).filter((a) => a.scope === 'team');
    expect(team.map((a) => a.threshold).sort((a, b) => a - b)).toEqual([50, 80, 100]);
    for (const a of team) {
      expect(a).toMatchObject({ scopeId: teamId, scopeName: 'Platform', limit: 3_000_000 });
      // Made by the batch that crossed it: at most one batch past the threshold.
      expect(a.used).toBeGreaterThanOrEqual((a.threshold / 100) * 3_000_000);
      expect(a.used).toBeLessThan((a.threshold / 100) * 3_000_000 + 150_000);
    }
    // More usage past 100 % makes none again this month.
    await use(ana, 150_000, 'team-more');
    expect((await alerts(org.ownerKey)).filter((a) => a.scope === 'team')).toHaveLength(3);
  });

  it('a person sees only their own alerts; owners see all, and thresholds and the organization budget are settings', async () => {
    const settings = { personThresholds: [90], teamThresholds: [50, 80, 100], organizationThresholds: [10], organizationBudget: 100_000_000 };
    expect((await t.request('PUT', '/api/v0/organization/alerts/settings', { key: ana.key, body: settings })).status).toBe(403);
    expect(
      (await t.request('PUT', '/api/v0/organization/alerts/settings', { key: org.ownerKey, body: { ...settings, personThresholds: [90, 80] } })).status,
    ).toBe(400);
    expect((await t.request('PUT', '/api/v0/organization/alerts/settings', { key: org.ownerKey, body: settings })).body).toEqual(settings);
    const limits = await t.request('PUT', '/api/v0/organization/usage/limits/users', {
      key: org.ownerKey,
      body: { users: [{ email: outsider.email, limit: 1_000_000 }] },
    });
    expect(limits.status).toBe(200);
    await use(outsider, 960_000, 'outsider-1');
    const mine = await alerts(outsider.key);
    expect(mine).toEqual([expect.objectContaining({ scope: 'person', scopeId: outsider.id, scopeName: outsider.email, threshold: 90, used: 960_000 })]);
    // 4,650,000 + 960,000 of 100,000,000 is not yet 10 %; 4,800,000 more is (10,410,000).
    expect((await alerts(org.ownerKey)).some((a) => a.scope === 'organization')).toBe(false);
    await use(outsider, 4_800_000, 'outsider-2');
    expect((await alerts(outsider.key)).map((a) => a.threshold)).toEqual([90]);
    expect(await alerts(ana.key)).toEqual([]);
    const all = await alerts(org.ownerKey);
    expect(all.find((a) => a.scope === 'organization')).toMatchObject({ scopeId: org.orgId, threshold: 10, limit: 100_000_000, used: 10_410_000 });
    expect(all.filter((a) => a.scope === 'person')).toHaveLength(1);
    // Paging: newest first, the cursor continues.
    const first = await t.request<{ alerts: Alert[]; nextCursor: string }>('GET', '/api/v0/alerts?limit=2', { key: org.ownerKey });
    const rest = await alerts(org.ownerKey, `?limit=100&cursor=${first.body.nextCursor}`);
    expect([...first.body.alerts, ...rest].map((a) => a.id)).toEqual(all.map((a) => a.id));
  });
});
