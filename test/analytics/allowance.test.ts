import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { ingest } from './fixture.js';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('allowance-org');
});
afterAll(() => t?.close());

const request = (id: string, at: number, model: string, inputTokens: number, cacheReadTokens = 0) => ({
  id,
  type: 'model_request',
  timestamp: at,
  sessionId: 's',
  client: 'terminal-ui',
  model,
  tier: 'standard',
  inputTokens,
  outputTokens: 0,
  cacheReadTokens,
  cacheWriteTokens: 0,
});

describe('GET /api/v0/usage/allowance reports ingested usage', () => {
  it("used and remaining reflect the caller's model requests of the current UTC month only", async () => {
    const member = await t.addUser(org, 'member');
    const now = new Date();
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 2_000_000 } });
    const res = await t.request('POST', '/api/v1/telemetry/events', {
      key: member.key,
      body: {
        events: [
          // This month: 1.2 × 1,000,000 = 1,200,000 and 1 × (0 + 5/10) = 0.5; together 1,200,000.5 → 1,200,001.
          request('a1', monthStart, 'claude-sonnet-4-5', 1_000_000),
          request('a2', Date.now() - 60_000, 'unknown-model', 0, 5),
          // The last millisecond of the previous month does not count.
          request('a3', monthStart - 1, 'claude-sonnet-4-5', 500_000),
        ],
      },
    });
    expect(res.status).toBe(202);
    // Another user's usage does not count either.
    await ingest(t, org, [{ ...request('a4', Date.now() - 60_000, 'gpt-5', 100_000), userId: org.ownerId }]);
    const allowance = await t.request('GET', '/api/v0/usage/allowance', { key: member.key });
    expect(allowance.body).toMatchObject({ limit: 2_000_000, source: 'global', used: 1_200_001, remaining: 799_999 });
    const owner = await t.request('GET', '/api/v0/usage/allowance', { key: org.ownerKey });
    expect(owner.body).toMatchObject({ used: 50_000, remaining: 1_950_000 });
  });
});
