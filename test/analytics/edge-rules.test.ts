import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query, tokens } from './fixture.js';

// Rules of docs/analytics.md that the hand-built fixture does not reach.
let t: TestApp;
let org: Org;
let user: { id: string };
const range = { startDate: '2026-07-06', endDate: '2026-07-08' };

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('edge-org');
  user = await t.addUser(org, 'member', 'edge@edge.test');
  const session = (at: string, level: string) => event(user.id, 'session_start', at, 'web', { delegationLevel: level });
  const file = (at: string, path: string) => event(user.id, 'file_change', at, 'web', { path, change: 'edited' });
  await ingest(t, org, [
    // 07-06: one spec and one auto-low session, a tie; the same credits on both tiers of one model.
    session('2026-07-06T09:00:00Z', 'spec'),
    session('2026-07-06T10:00:00Z', 'auto-low'),
    event(user.id, 'model_request', '2026-07-06T10:05:00Z', 'web', tokens('gpt-5', 'thinking', 100, 0, 0, 0)),
    event(user.id, 'model_request', '2026-07-06T10:06:00Z', 'web', tokens('gpt-5', 'standard', 100, 0, 0, 0)),
    // 07-07: manual and auto-high, a tie; files without an extension, hidden, and upper case.
    session('2026-07-07T09:00:00Z', 'manual'),
    session('2026-07-07T10:00:00Z', 'auto-high'),
    file('2026-07-07T10:01:00Z', '.gitignore'),
    file('2026-07-07T10:02:00Z', 'Makefile'),
    file('2026-07-07T10:03:00Z', 'lib/x.PY'),
    file('2026-07-07T10:04:00Z', 'dir.d/file'),
  ]);
});
afterAll(() => t?.close());

describe('rules of docs/analytics.md beyond the hand-built fixture', () => {
  it('a delegation tie goes to the more autonomous level; a tier tie goes to standard', async () => {
    const res = await t.request<{ data: { date: string; delegation_level: string; primary_model: string; primary_model_tier: string }[] }>(
      'GET',
      query('users', range),
      { key: org.ownerKey },
    );
    expect(res.body.data.map((r) => [r.date, r.delegation_level, r.primary_model, r.primary_model_tier])).toEqual([
      ['2026-07-06', 'auto-low', 'gpt-5', 'standard'],
      ['2026-07-07', 'auto-high', null, null],
    ]);
  });

  it('hidden files and files without an extension count under "", extensions lower-cased', async () => {
    const res = await t.request<{ data: { date: string; by_extension: { extension: string; count: number }[] }[] }>('GET', query('productivity', range), {
      key: org.ownerKey,
    });
    expect(res.body.data.find((d) => d.date === '2026-07-07')!.by_extension).toEqual([
      { extension: '', count: 3 },
      { extension: 'py', count: 1 },
    ]);
  });

  it('concurrent batches of one user-day rank its models together for the primary model', async () => {
    const member = await t.addUser(org, 'member', 'race@edge.test');
    const request = (id: string, day: string, model: string, input: number) => ({
      id,
      type: 'model_request',
      timestamp: `${day}T12:00:00Z`,
      sessionId: 'r',
      client: 'web',
      ...tokens(model, 'standard', input, 0, 0, 0),
    });
    const days = Array.from({ length: 12 }, (_, i) => `2026-06-${String(i + 10).padStart(2, '0')}`);
    for (const day of days) {
      // Alone, the second batch would make race-b primary; with the first, race-a has more credits.
      const sent = await Promise.all([
        t.request('POST', '/api/v1/telemetry/events', { key: member.key, body: { events: [request(`a-${day}`, day, 'race-a', 100)] } }),
        t.request('POST', '/api/v1/telemetry/events', { key: member.key, body: { events: [request(`b-${day}`, day, 'race-b', 60)] } }),
      ]);
      expect(sent.map((r) => r.status)).toEqual([202, 202]);
    }
    const res = await t.request<{ data: { user_id: string; primary_model: string }[] }>(
      'GET',
      query('users', { startDate: days[0]!, endDate: days.at(-1)!, limit: 100 }),
      { key: org.ownerKey },
    );
    expect(res.body.data.filter((r) => r.user_id === member.id).map((r) => r.primary_model)).toEqual(days.map(() => 'race-a'));
  });

  it("a service account's own events count under its id, with user_email null", async () => {
    const account = await t.operatorIdentity.addServiceAccount({ orgId: org.orgId, name: 'ci-bot', role: 'member' });
    const { secret } = await t.operatorIdentity.createKey(org.orgId, { id: account.id });
    const sent = await t.request('POST', '/api/v1/telemetry/events', {
      key: secret,
      body: {
        events: [
          {
            id: 'bot-1',
            type: 'model_request',
            timestamp: '2026-07-08T12:00:00Z',
            sessionId: 'b',
            client: 'non-interactive-cli',
            ...tokens('gpt-5', 'standard', 1000, 0, 0, 0),
          },
        ],
      },
    });
    expect(sent.status).toBe(202);
    const res = await t.request<{ data: { date: string; by_user: { user_id: string; user_email: string | null; billable_tokens: number }[] }[] }>(
      'GET',
      query('tokens', range),
      { key: org.ownerKey },
    );
    expect(res.body.data.find((d) => d.date === '2026-07-08')!.by_user).toEqual([expect.objectContaining({ user_id: account.id, user_email: null })]);
    const users = await t.request<{ data: { user_id: string; user_email: string | null; date: string }[] }>('GET', query('users', range), {
      key: org.ownerKey,
    });
    expect(users.body.data.filter((r) => r.user_id === account.id)).toEqual([expect.objectContaining({ date: '2026-07-08', user_email: null })]);
  });
});
