import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/v1/telemetry/events';
const MAX = 1_000_000_000_000;
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('huge-sums');
});
afterAll(() => t?.close());

const huge = (prefix: string, count: number, day: string) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    type: 'model_request',
    timestamp: `${day}T10:00:00Z`,
    sessionId: 's1',
    client: 'terminal-ui',
    model: 'gpt-5',
    tier: 'standard',
    inputTokens: MAX,
    outputTokens: MAX,
    cacheReadTokens: MAX,
    cacheWriteTokens: MAX,
  }));

const storedEvents = async () =>
  Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM telemetry_events WHERE org_id = $1`, [org.orgId]))[0]!.n);
const tokensRow = (day: string) =>
  t.request<{ data: { date: string; total_input_tokens?: number }[] }>('GET', `/api/v1/analytics/tokens?startDate=${day}&endDate=${day}`, {
    key: org.ownerKey,
  });

describe('token sums the service cannot keep exactly', () => {
  it('refuses a batch of 1000 maximal model requests of one day with 400, stores none of it, and keeps serving', async () => {
    const before = await storedEvents();
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: huge('a', 1000, '2026-10-02') } }), 400);
    expect(err.detail).toMatch(/past what the service keeps exactly/);
    expect((err.metadata?.errors as { path: string }[])[0]!.path).toMatch(/^\/events\/\d+\/inputTokens$/);
    expect(await storedEvents()).toBe(before);
    const me = await t.request('GET', '/api/v0/me', { key: org.ownerKey });
    expect(me.status).toBe(200);
  });

  it('refuses the second of two batches that together pass the limit, keeping the first exactly', async () => {
    const first = await t.request('POST', PATH, { key: org.ownerKey, body: { events: huge('b', 500, '2026-10-03') } });
    expect(first.status).toBe(202);
    const before = await storedEvents();
    const second = await t.request('POST', PATH, { key: org.ownerKey, body: { events: huge('c', 500, '2026-10-03') } });
    expectErrorObject(second, 400);
    expect(await storedEvents()).toBe(before);
    const rows = await t.db.query<{ input: string }>(`SELECT input_tokens::text AS input FROM analytics_user_day WHERE org_id = $1 AND day = '2026-10-03'`, [
      org.orgId,
    ]);
    expect(rows).toEqual([{ input: String(500 * MAX) }]);
    expect((await tokensRow('2026-10-03')).status).toBe(200);
  });

  it('keeps accepting ordinary events after a refusal', async () => {
    const res = await t.request('POST', PATH, {
      key: org.ownerKey,
      body: { events: [{ id: 'ok-1', type: 'git_commit', timestamp: '2026-10-04T10:00:00Z', sessionId: 's', client: 'web' }] },
    });
    expect(res.status).toBe(202);
  });
});
