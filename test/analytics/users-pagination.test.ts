import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query } from './fixture.js';

let t: TestApp;
let org: Org;
const range = { startDate: '2026-09-01', endDate: '2026-09-03' };
const expected: { user_id: string; date: string }[] = [];

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('pages-org');
  const events: unknown[] = [];
  // Seven users, active on one to three days of the range; one more active only outside it.
  for (let i = 0; i < 7; i++) {
    const user = await t.addUser(org, 'member', `p${i}@pages.test`);
    for (let d = 0; d <= i % 3; d++) {
      const date = `2026-09-0${d + 1}`;
      events.push(event(user.id, 'git_commit', `${date}T12:00:00Z`, 'web'));
      expected.push({ user_id: user.id, date });
    }
  }
  const outside = await t.addUser(org, 'member', 'outside@pages.test');
  events.push(event(outside.id, 'git_commit', '2026-09-05T12:00:00Z', 'web'));
  await ingest(t, org, events);
  expected.sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : a.date < b.date ? -1 : 1));
});
afterAll(() => t?.close());

type Page = { data: { user_id: string; date: string }[]; meta: { has_more: boolean; next_cursor: string | null } };

describe('/users pagination', () => {
  it.each([1, 2, 3, 100])('walks every row exactly once with limit %i', async (limit) => {
    const seen: { user_id: string; date: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await t.request<Page>('GET', query('users', { ...range, limit, cursor }), { key: org.ownerKey });
      expect(res.status).toBe(200);
      pages++;
      expect(new Set(res.body.data.map((r) => r.user_id)).size).toBeLessThanOrEqual(limit);
      seen.push(...res.body.data.map((r) => ({ user_id: r.user_id, date: r.date })));
      if (!res.body.meta.has_more) {
        expect(res.body.meta.next_cursor).toBeNull();
        break;
      }
      expect(res.body.meta.next_cursor).toBe(res.body.data[res.body.data.length - 1]!.user_id);
      cursor = res.body.meta.next_cursor!;
      expect(pages).toBeLessThan(20);
    }
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(7 / limit));
  });

  it('defaults to 20 users per page', async () => {
    // An organization of its own with 21 users active on one day: the default page holds 20.
    const big = await t.createOrg('pages-default-org');
    const events: unknown[] = [];
    for (let i = 0; i < 21; i++) {
      const user = await t.addUser(big, 'member', `d${i}@pages-default.test`);
      events.push(event(user.id, 'git_commit', '2026-09-02T12:00:00Z', 'web'));
    }
    await ingest(t, big, events);
    const first = await t.request<Page>('GET', query('users', range), { key: big.ownerKey });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta.has_more).toBe(true);
    const rest = await t.request<Page>('GET', query('users', { ...range, cursor: first.body.meta.next_cursor! }), { key: big.ownerKey });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.meta.has_more).toBe(false);
  });
});
