import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query } from './fixture.js';

// /users keeps each user-day's row while its day keeps its version; a day's delegation level can
// come from an earlier day, so these tests also change earlier days and check the later rows.
let t: TestApp;
let org: Org;
let ann: { id: string };
let bob: { id: string };
const range = { startDate: '2026-08-10', endDate: '2026-08-14' };

type UsersPage = {
  data: { user_id: string; date: string; tool_calls: number; sessions: number; delegation_level: string; languages: string[] }[];
  meta: Record<string, unknown>;
};
const usersOf = async (app: FastifyInstance | TestApp, params: Record<string, string | number | undefined> = {}) => {
  const res = await (app instanceof TestApp ? app.app : app).inject({
    method: 'GET',
    url: query('users', { ...range, ...params }),
    headers: { authorization: `Bearer ${org.ownerKey}` },
  });
  expect(res.statusCode).toBe(200);
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  return JSON.parse(res.body) as UsersPage;
};
const rowOf = (page: UsersPage, userId: string, date: string) => page.data.find((r) => r.user_id === userId && r.date === date);
const levelsOf = (page: UsersPage, userId: string) => page.data.filter((r) => r.user_id === userId).map((r) => [r.date, r.delegation_level]);
const session = (userId: string, at: string, level: string) => event(userId, 'session_start', at, 'terminal-ui', { delegationLevel: level });
const toolCall = (userId: string, at: string) => event(userId, 'tool_call', at, 'terminal-ui', { tool: 'Read', autonomyLevel: 'manual' });

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('users-kept-org');
  ann = await t.addUser(org, 'member', 'ann@users-kept.test');
  bob = await t.addUser(org, 'member', 'bob@users-kept.test');
  await ingest(t, org, [
    session(ann.id, '2026-08-10T09:00:00Z', 'spec'),
    toolCall(ann.id, '2026-08-12T09:00:00Z'),
    toolCall(ann.id, '2026-08-14T09:00:00Z'),
    toolCall(bob.id, '2026-08-12T09:00:00Z'),
  ]);
});
afterAll(() => t?.close());

describe('/users rows kept between requests', () => {
  it('a user-day already served shows events stored after it was served', async () => {
    expect(rowOf(await usersOf(t), ann.id, '2026-08-12')!.tool_calls).toBe(1);
    await ingest(t, org, [toolCall(ann.id, '2026-08-12T10:00:00Z'), toolCall(ann.id, '2026-08-12T11:00:00Z')]);
    const after = await usersOf(t);
    expect(rowOf(after, ann.id, '2026-08-12')!.tool_calls).toBe(3);
    expect(rowOf(after, bob.id, '2026-08-12')!.tool_calls).toBe(1);
  });

  it('a day on which a user had no row when served shows the row once the user is active', async () => {
    expect(rowOf(await usersOf(t), bob.id, '2026-08-13')).toBeUndefined();
    await ingest(t, org, [toolCall(bob.id, '2026-08-13T09:00:00Z')]);
    expect(rowOf(await usersOf(t), bob.id, '2026-08-13')!.tool_calls).toBe(1);
  });

  it('a session stored on an earlier day in the range changes the level of the later days served before', async () => {
    expect(levelsOf(await usersOf(t), ann.id)).toEqual([
      ['2026-08-10', 'spec'],
      ['2026-08-12', 'spec'],
      ['2026-08-14', 'spec'],
    ]);
    // 08-14 itself is unchanged (its version too): its level comes from the new latest session.
    await ingest(t, org, [session(ann.id, '2026-08-12T12:00:00Z', 'auto-low')]);
    expect(levelsOf(await usersOf(t), ann.id)).toEqual([
      ['2026-08-10', 'spec'],
      ['2026-08-12', 'auto-low'],
      ['2026-08-14', 'auto-low'],
    ]);
  });

  it('a session stored before the range changes the level of the days served before', async () => {
    const later = { startDate: '2026-08-12', endDate: '2026-08-14' };
    expect(levelsOf(await usersOf(t, later), bob.id)).toEqual([
      ['2026-08-12', 'manual'],
      ['2026-08-13', 'manual'],
    ]);
    await ingest(t, org, [session(bob.id, '2026-08-01T08:00:00Z', 'auto-high')]);
    expect(levelsOf(await usersOf(t, later), bob.id)).toEqual([
      ['2026-08-12', 'auto-high'],
      ['2026-08-13', 'auto-high'],
    ]);
  });

  it('pages of one user and of two read the rows kept by the other', async () => {
    const both = await usersOf(t, { limit: 2 });
    const first = await usersOf(t, { limit: 1 });
    const second = await usersOf(t, { limit: 1, cursor: first.meta.next_cursor as string });
    expect([...first.data, ...second.data]).toEqual(both.data);
    expect([first.meta.has_more, second.meta.has_more, both.meta.has_more]).toEqual([true, false, false]);
  });

  it('another process on the same database sees a change to a user-day this process served, and this one sees its changes', async () => {
    const other = await t.otherProcess();
    try {
      expect(await usersOf(other)).toEqual(await usersOf(t));
      await ingest(t, org, [event(ann.id, 'file_change', '2026-08-14T12:00:00Z', 'web', { path: 'src/x.rs', change: 'edited' })]);
      expect(rowOf(await usersOf(other), ann.id, '2026-08-14')!.languages).toEqual(['Rust']);
      const res = await other.inject({
        method: 'POST',
        url: '/api/v1/telemetry/events',
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ events: [session(bob.id, '2026-08-13T12:00:00Z', 'spec')] }),
      });
      expect(res.statusCode).toBe(202);
      expect(rowOf(await usersOf(t), bob.id, '2026-08-13')).toMatchObject({ sessions: 1, delegation_level: 'spec' });
    } finally {
      await other.close();
    }
  });

  it('answers exactly as a process that keeps nothing (ANALYTICS_CACHE_MB=0), in the order of the response schema', async () => {
    const uncached = await t.otherProcess({ analyticsCacheMb: 0 });
    try {
      const kept = await usersOf(t);
      const res = await uncached.inject({ method: 'GET', url: query('users', range), headers: { authorization: `Bearer ${org.ownerKey}` } });
      expect(JSON.parse(res.body)).toEqual(kept);
      expect(Object.keys(kept.data[0]!)).toEqual([
        'user_id',
        'user_email',
        'date',
        'tool_calls',
        'billable_tokens',
        'primary_model',
        'primary_model_tier',
        'files_created',
        'files_edited',
        'git_commits',
        'git_prs_created',
        'mcp_calls',
        'skill_calls',
        'slash_commands',
        'hooks',
        'sessions',
        'messages',
        'user_messages',
        'assistant_messages',
        'autonomy_ratio',
        'delegation_level',
        'languages',
      ]);
      expect(kept.meta).toEqual({ org_id: org.orgId, start_date: range.startDate, end_date: range.endDate, has_more: false, next_cursor: null });
    } finally {
      await uncached.close();
    }
  });
});
