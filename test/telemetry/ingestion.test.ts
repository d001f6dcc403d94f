import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/v1/telemetry/events';
let t: TestApp;
let org: Org;
let n = 0;
const uid = () => `ev-${++n}-${Math.random().toString(36).slice(2, 8)}`;
const base = { timestamp: '2026-10-01T10:00:00Z', sessionId: 's1', client: 'terminal-ui' };
const commit = (over: Record<string, unknown> = {}) => ({ id: uid(), type: 'git_commit', ...base, ...over });

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('ingest-org');
});
afterAll(() => t?.close());

const stored = async () => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM telemetry_events WHERE org_id = $1`, [org.orgId]))[0]!.n);
const commitsOn = async (date: string, userId = org.ownerId) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        `SELECT coalesce(sum(git_commits), 0)::int AS n FROM analytics_user_day WHERE org_id = $1 AND user_id = $2 AND day = $3`,
        [org.orgId, userId, date],
      )
    )[0]!.n,
  );

describe('POST /api/v1/telemetry/events', () => {
  it('accepts every event type with 202 and counts duplicates by id, across and within batches', async () => {
    const events = [
      { id: uid(), type: 'session_start', ...base, delegationLevel: 'spec' },
      { id: uid(), type: 'message', ...base, role: 'user' },
      {
        id: uid(),
        type: 'model_request',
        ...base,
        model: 'gpt-5',
        tier: 'standard',
        inputTokens: 10,
        outputTokens: 5,
        cacheReadTokens: 100,
        cacheWriteTokens: 0,
      },
      { id: uid(), type: 'tool_call', ...base, tool: 'Read', autonomyLevel: 'auto-low', mcpServer: 'GitHub' },
      { id: uid(), type: 'skill', ...base, name: 'pdf' },
      { id: uid(), type: 'slash_command', ...base, name: '/review' },
      { id: uid(), type: 'hook', ...base, event: 'Stop', matcher: '', command: 'echo done' },
      { id: uid(), type: 'file_change', ...base, path: 'src/a.ts', change: 'created' },
      { id: uid(), type: 'git_commit', ...base, timestamp: Date.parse('2026-10-01T11:00:00Z') },
      { id: uid(), type: 'pr_created', ...base, timestamp: '2026-10-01T13:00:00+02:00' },
    ];
    const first = await t.request('POST', PATH, { key: org.ownerKey, body: { events } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ accepted: 10, duplicates: 0 });
    const again = await t.request('POST', PATH, { key: org.ownerKey, body: { events: [...events.slice(0, 3), commit()] } });
    expect(again.body).toEqual({ accepted: 1, duplicates: 3 });
    const e = commit({ timestamp: '2026-09-03T10:00:00Z' });
    const within = await t.request('POST', PATH, { key: org.ownerKey, body: { events: [e, e, { ...e, type: 'pr_created' }] } });
    expect(within.body).toEqual({ accepted: 1, duplicates: 2 });
    expect(await commitsOn('2026-09-03')).toBe(1);
    expect(await stored()).toBe(12);
  });

  it('rejects a batch with one bad event with 400 naming /events/N/field, and stores nothing of it', async () => {
    const before = await stored();
    const events = [commit({ timestamp: '2026-09-04T10:00:00Z' }), commit(), { ...commit(), type: 'git_push' }];
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events } }), 400);
    expect((err.metadata?.errors as { path: string }[]).map((i) => i.path)).toContain('/events/2/type');
    expect(err.detail).toContain('/events/2/type');
    expect(await stored()).toBe(before);
    expect(await commitsOn('2026-09-04')).toBe(0);
  });

  it.each([
    ['a missing type field', { id: 'x1', type: 'message', ...base }, '/events/0/role'],
    ['a bad role', { id: 'x1', type: 'message', ...base, role: 'system' }, '/events/0/role'],
    [
      'negative tokens',
      { id: 'x1', type: 'model_request', ...base, model: 'm', tier: 'standard', inputTokens: -1, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      '/events/0/inputTokens',
    ],
    [
      'fractional tokens',
      { id: 'x1', type: 'model_request', ...base, model: 'm', tier: 'standard', inputTokens: 1.5, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      '/events/0/inputTokens',
    ],
    [
      'a bad tier',
      { id: 'x1', type: 'model_request', ...base, model: 'm', tier: 'fast', inputTokens: 1, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      '/events/0/tier',
    ],
    ['a bad delegation level', { id: 'x1', type: 'session_start', ...base, delegationLevel: 'auto' }, '/events/0/delegationLevel'],
    ['spec as a tool autonomy level', { id: 'x1', type: 'tool_call', ...base, tool: 'Read', autonomyLevel: 'spec' }, '/events/0/autonomyLevel'],
    ['a bad client', { id: 'x1', type: 'git_commit', ...base, client: 'ide' }, '/events/0/client'],
    ['a missing id', { type: 'git_commit', ...base }, '/events/0/id'],
    ['a missing sessionId', { id: 'x1', type: 'git_commit', timestamp: base.timestamp, client: 'web' }, '/events/0/sessionId'],
    ['a timestamp without offset', { id: 'x1', type: 'git_commit', ...base, timestamp: '2026-10-01T10:00:00' }, '/events/0/timestamp'],
    ['a date-only timestamp', { id: 'x1', type: 'git_commit', ...base, timestamp: '2026-10-01' }, '/events/0/timestamp'],
    ['an impossible date', { id: 'x1', type: 'git_commit', ...base, timestamp: '2026-02-30T10:00:00Z' }, '/events/0/timestamp'],
    ['a timestamp before 2026-01-14', { id: 'x1', type: 'git_commit', ...base, timestamp: '2026-01-13T23:59:59.999Z' }, '/events/0/timestamp'],
    ['an epoch before 2026-01-14', { id: 'x1', type: 'git_commit', ...base, timestamp: Date.UTC(2026, 0, 13) }, '/events/0/timestamp'],
    ['a timestamp 10 minutes ahead', { id: 'x1', type: 'git_commit', ...base, timestamp: Date.now() + 10 * 60_000 }, '/events/0/timestamp'],
    ['a fractional epoch', { id: 'x1', type: 'git_commit', ...base, timestamp: 1780000000000.5 }, '/events/0/timestamp'],
    ['a NUL character in a name', { id: 'x1', type: 'tool_call', ...base, tool: 'Re\u0000ad', autonomyLevel: 'manual' }, '/events/0/tool'],
    ['a NUL character in the id', { id: 'x\u00001', type: 'git_commit', ...base }, '/events/0/id'],
  ])('400 for %s', async (_name, event, path) => {
    const before = await stored();
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: [event] } }), 400);
    expect((err.metadata?.errors as { path: string }[]).map((i) => i.path)).toContain(path);
    expect(await stored()).toBe(before);
  });

  it('stores the instant of every timestamp form to the millisecond, and counts it on its UTC day', async () => {
    const forms: [string | number, string][] = [
      ['2026-09-20T23:30:00.1239Z', '2026-09-20T23:30:00.123Z'],
      ['2026-09-20T23:30:00-01:00', '2026-09-21T00:30:00.000Z'],
      ['2026-09-21T01:15+05:45', '2026-09-20T19:30:00.000Z'],
      [Date.UTC(2026, 8, 21, 12, 0, 0, 7), '2026-09-21T12:00:00.007Z'],
    ];
    const events = forms.map(([timestamp]) => commit({ timestamp }));
    expect((await t.request('POST', PATH, { key: org.ownerKey, body: { events } })).status).toBe(202);
    const rows = await t.db.query<{ event_id: string; at: string }>(
      `SELECT event_id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM telemetry_events WHERE org_id = $1 AND event_id = ANY($2::text[])`,
      [org.orgId, events.map((e) => e.id)],
    );
    expect(events.map((e) => rows.find((r) => r.event_id === e.id)?.at)).toEqual(forms.map(([, at]) => at));
    expect([await commitsOn('2026-09-20'), await commitsOn('2026-09-21')]).toEqual([2, 2]);
  });

  it('accepts the earliest instant and 4 minutes ahead', async () => {
    const res = await t.request('POST', PATH, {
      key: org.ownerKey,
      body: { events: [commit({ timestamp: '2026-01-14T00:00:00Z' }), commit({ timestamp: Date.now() + 4 * 60_000 })] },
    });
    expect(res.body).toEqual({ accepted: 2, duplicates: 0 });
  });

  it('ignores unknown fields inside events but rejects unknown top-level properties', async () => {
    const ok = await t.request('POST', PATH, { key: org.ownerKey, body: { events: [commit({ futureField: { x: 1 } })] } });
    expect(ok.status).toBe(202);
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: [commit()], extra: true } }), 400);
    expect((err.metadata?.errors as { path: string }[]).map((i) => i.path)).toContain('/extra');
  });

  it('400 for an empty batch and for 1001 events; 1000 are accepted', async () => {
    expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: [] } }), 400);
    const many = Array.from({ length: 1001 }, () => commit({ timestamp: '2026-09-10T10:00:00Z' }));
    expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: many } }), 400);
    const res = await t.request('POST', PATH, { key: org.ownerKey, body: { events: many.slice(0, 1000) } });
    expect(res.body).toEqual({ accepted: 1000, duplicates: 0 });
    expect(await commitsOn('2026-09-10')).toBe(1000);
  });

  it('401 without a credential', async () => {
    expectErrorObject(await t.request('POST', PATH, { body: { events: [commit()] } }), 401);
  });

  it('every role may ingest its own events, attributed to itself', async () => {
    for (const role of ['manager', 'member', 'guest'] as const) {
      const u = await t.addUser(org, role);
      const res = await t.request('POST', PATH, {
        key: u.key,
        body: { events: [commit({ timestamp: '2026-09-11T10:00:00Z' }), commit({ timestamp: '2026-09-11T11:00:00Z', userId: u.id })] },
      });
      expect(res.status).toBe(202);
      expect(await commitsOn('2026-09-11', u.id)).toBe(2);
    }
  });

  it("owner and manager may import another user's events; a member may not (403); an unknown user is 400", async () => {
    const member = await t.addUser(org, 'member');
    const manager = await t.addUser(org, 'manager');
    const res = await t.request('POST', PATH, { key: manager.key, body: { events: [commit({ timestamp: '2026-09-12T10:00:00Z', userId: member.id })] } });
    expect(res.status).toBe(202);
    expect(await commitsOn('2026-09-12', member.id)).toBe(1);
    expect(await commitsOn('2026-09-12', manager.id)).toBe(0);

    const before = await stored();
    expectErrorObject(await t.request('POST', PATH, { key: member.key, body: { events: [commit({ userId: manager.id })] } }), 403);
    const other = await t.createOrg('other-org');
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: [commit(), commit({ userId: other.ownerId })] } }), 400);
    expect(err.metadata?.errors).toEqual([{ path: '/events/1/userId', message: 'names no user of this organization' }]);
    expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: { events: [commit({ userId: 'not-a-uuid' })] } }), 400);
    expect(await stored()).toBe(before);
  });

  it('keeps event ids per organization: the same id in two organizations is stored twice', async () => {
    const other = await t.createOrg('ids-org');
    const e = commit({ timestamp: '2026-09-13T10:00:00Z' });
    expect((await t.request('POST', PATH, { key: org.ownerKey, body: { events: [e] } })).body).toEqual({ accepted: 1, duplicates: 0 });
    expect((await t.request('POST', PATH, { key: other.ownerKey, body: { events: [e] } })).body).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('concurrent batches sharing ids store each id once', async () => {
    const shared = Array.from({ length: 50 }, () => commit({ timestamp: '2026-09-14T10:00:00Z' }));
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => t.request<{ accepted: number; duplicates: number }>('POST', PATH, { key: org.ownerKey, body: { events: [...shared].reverse() } })),
    );
    expect(results.reduce((s, r) => s + r.body.accepted, 0)).toBe(50);
    expect(results.reduce((s, r) => s + r.body.duplicates, 0)).toBe(150);
    expect(await commitsOn('2026-09-14')).toBe(50);
  });
});
