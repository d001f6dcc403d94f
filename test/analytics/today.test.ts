import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { TestApp, expectErrorObject, type Org } from '../helpers/test-app.js';
import { event, ingest, tokens } from './fixture.js';

let t: TestApp;
let org: Org;
let quiet: Org;
let manager: { id: string; key: string };
let member: { id: string; key: string };
/** Noon of 2026-09-10 (UTC): "today" of every call below. */
const clock = new TestClock(Date.parse('2026-09-10T12:00:00Z'));

type Sums = { billable_tokens: number; tokens: number; sessions: number; tool_calls: number };
type Today = { date: string; mine: Sums; organization: (Sums & { active_users: number; first_active_date: string | null }) | null };

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('today-org');
  quiet = await t.createOrg('quiet-org');
  manager = await t.addUser(org, 'manager', 'manager@today.test');
  member = await t.addUser(org, 'member', 'member@today.test');
  await ingest(t, org, [
    // Today, the manager: one session, two tool calls, and two model requests:
    // gpt-5 (× 0.5): 0.5 × (300 + 100 + 0 + 55/10) = 202.75; claude-sonnet-4-5 (× 1.2): 1.2 × 1000 = 1200.
    event(manager.id, 'session_start', '2026-09-10T09:00:00Z', 'terminal-ui', { delegationLevel: 'spec' }),
    event(manager.id, 'tool_call', '2026-09-10T09:01:00Z', 'terminal-ui', { tool: 'Read', autonomyLevel: 'manual' }),
    event(manager.id, 'tool_call', '2026-09-10T09:02:00Z', 'terminal-ui', { tool: 'Edit', autonomyLevel: 'manual' }),
    event(manager.id, 'model_request', '2026-09-10T09:03:00Z', 'terminal-ui', tokens('gpt-5', 'standard', 300, 100, 55, 0)),
    event(manager.id, 'model_request', '2026-09-10T11:59:00Z', 'terminal-ui', tokens('claude-sonnet-4-5', 'standard', 1000, 0, 0, 0)),
    // Today, the member: a tool call and a request of 0.5 × 1 = 0.5 credit.
    event(member.id, 'tool_call', '2026-09-10T00:00:00Z', 'web', { tool: 'Read', autonomyLevel: 'manual' }),
    event(member.id, 'model_request', '2026-09-10T10:00:00Z', 'web', tokens('gpt-5', 'standard', 1, 0, 0, 0)),
    // Earlier days: not today, but the first of them is the organization's first day of usage.
    event(member.id, 'git_commit', '2026-09-02T10:00:00Z', 'web'),
    event(manager.id, 'tool_call', '2026-09-09T23:59:59Z', 'terminal-ui', { tool: 'Read', autonomyLevel: 'manual' }),
    event(manager.id, 'model_request', '2026-09-09T23:59:59Z', 'terminal-ui', tokens('gpt-5', 'standard', 5000, 0, 0, 0)),
  ]);
});
afterAll(() => t?.close());

describe('GET /api/v0/usage/today', () => {
  it("answers a manager's own usage today and the organization's, credits rounded once", async () => {
    const res = await t.request<Today>('GET', '/api/v0/usage/today', { key: manager.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      date: '2026-09-10',
      // 202.75 + 1200 = 1402.75 credits; 300 + 100 + 55 + 1000 tokens.
      mine: { billable_tokens: 1403, tokens: 1455, sessions: 1, tool_calls: 2 },
      // 1402.75 + 0.5 = 1403.25 credits, rounded once; 1455 + 1 tokens; 2 + 1 tool calls.
      organization: { billable_tokens: 1403, tokens: 1456, sessions: 1, tool_calls: 3, active_users: 2, first_active_date: '2026-09-02' },
    });
  });

  it('answers the owner, without usage of their own, zeros and the organization', async () => {
    const res = await t.request<Today>('GET', '/api/v0/usage/today', { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.mine).toEqual({ billable_tokens: 0, tokens: 0, sessions: 0, tool_calls: 0 });
    expect(res.body.organization?.billable_tokens).toBe(1403);
  });

  it("answers a member their own usage only (0.5 credit rounds half up to 1), not the organization's", async () => {
    const res = await t.request<Today>('GET', '/api/v0/usage/today', { key: member.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ date: '2026-09-10', mine: { billable_tokens: 1, tokens: 1, sessions: 0, tool_calls: 1 }, organization: null });
  });

  it('answers an organization without any usage zeros and no first day', async () => {
    const res = await t.request<Today>('GET', '/api/v0/usage/today', { key: quiet.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.organization).toEqual({ billable_tokens: 0, tokens: 0, sessions: 0, tool_calls: 0, active_users: 0, first_active_date: null });
  });

  it('refuses a call without a credential with 401', async () => {
    expectErrorObject(await t.request('GET', '/api/v0/usage/today'), 401);
  });

  it('moves to the next day at midnight UTC', async () => {
    // The last test of the file: the clock stays on the next day.
    clock.advance(12 * 3_600_000);
    const res = await t.request<Today>('GET', '/api/v0/usage/today', { key: manager.key });
    expect(res.body.date).toBe('2026-09-11');
    expect(res.body.mine).toEqual({ billable_tokens: 0, tokens: 0, sessions: 0, tool_calls: 0 });
    expect(res.body.organization).toMatchObject({ active_users: 0, first_active_date: '2026-09-02' });
  });
});
