import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DayBudget } from '../../src/analytics/day-cache.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query, tokens } from './fixture.js';

// /tokens keeps each day's serialized rows while the day keeps its version, with and without
// group_by=model: these tests change days that a process has already served and check that every
// process serves the change.
let t: TestApp;
let org: Org;
let user: { id: string; email: string; key: string };
let first: ReturnType<typeof event>;
const range = { startDate: '2026-08-01', endDate: '2026-08-05' };

type TokensDay = { date: string; billable_tokens: number; input_tokens: number; by_user: { user_id: string; by_model: { model_id: string }[] }[] };
const tokensOf = async (app: FastifyInstance | TestApp) => {
  const res = await (app instanceof TestApp ? app.app : app).inject({
    method: 'GET',
    url: query('tokens', range),
    headers: { authorization: `Bearer ${org.ownerKey}` },
  });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as { data: TokensDay[]; meta: unknown };
};
const inputOn = (r: { data: TokensDay[] }, date: string) => r.data.find((d) => d.date === date)!.input_tokens;
const request = (at: string, input: number, model = 'gpt-5') => event(user.id, 'model_request', at, 'web', tokens(model, 'standard', input, 0, 0, 0));

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('day-cache-org');
  user = await t.addUser(org, 'member', 'cached@day-cache.test');
  first = request('2026-08-01T10:00:00Z', 100);
  await ingest(t, org, [first, request('2026-08-03T10:00:00Z', 300, 'claude-sonnet-4-5')]);
});
afterAll(() => t?.close());

type ByModel = { data: { date: string; group_key: string; input_tokens: number; billable_tokens: number }[]; meta: unknown };
const byModelOf = async (app: FastifyInstance | TestApp) => {
  const res = await (app instanceof TestApp ? app.app : app).inject({
    method: 'GET',
    url: query('tokens', { ...range, group_by: 'model' }),
    headers: { authorization: `Bearer ${org.ownerKey}` },
  });
  expect(res.statusCode).toBe(200);
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  return JSON.parse(res.body) as ByModel;
};
const modelInputs = (r: ByModel) => r.data.map((x) => [x.date, x.group_key, x.input_tokens]);

describe('/tokens day rows kept between requests', () => {
  it('a day already served shows events stored after it was served', async () => {
    const before = await tokensOf(t);
    expect([inputOn(before, '2026-08-01'), inputOn(before, '2026-08-03')]).toEqual([100, 300]);
    await ingest(t, org, [request('2026-08-01T11:00:00Z', 5)]);
    const after = await tokensOf(t);
    expect([inputOn(after, '2026-08-01'), inputOn(after, '2026-08-03')]).toEqual([105, 300]);
  });

  it('a day that had no events when served shows events that arrive later', async () => {
    expect(inputOn(await tokensOf(t), '2026-08-04')).toBe(0);
    await ingest(t, org, [request('2026-08-04T09:00:00Z', 40)]);
    const after = await tokensOf(t);
    expect(inputOn(after, '2026-08-04')).toBe(40);
    expect(after.data.find((d) => d.date === '2026-08-04')!.by_user.map((u) => u.user_id)).toEqual([user.id]);
  });

  it('a batch of duplicates changes no day, and the days read the same afterwards', async () => {
    const before = await tokensOf(t);
    const res = await t.request('POST', '/api/v1/telemetry/events', { key: org.ownerKey, body: { events: [first] } });
    expect(res.body).toEqual({ accepted: 0, duplicates: 1 });
    expect(await tokensOf(t)).toEqual(before);
  });

  it('another process on the same database sees a change to a day this process served, and this one sees its changes', async () => {
    const other = await t.otherProcess();
    try {
      expect(await tokensOf(other)).toEqual(await tokensOf(t));
      // Ingested through this process: the other one has the day kept, and must rebuild it.
      await ingest(t, org, [request('2026-08-03T12:00:00Z', 1000)]);
      expect(inputOn(await tokensOf(other), '2026-08-03')).toBe(1300);
      // Ingested through the other process: this one must rebuild.
      const res = await other.inject({
        method: 'POST',
        url: '/api/v1/telemetry/events',
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ events: [request('2026-08-05T12:00:00Z', 7)] }),
      });
      expect(res.statusCode).toBe(202);
      expect(inputOn(await tokensOf(t), '2026-08-05')).toBe(7);
    } finally {
      await other.close();
    }
  });

  it('sends a Content-Length of the bytes, also for text beyond ASCII', async () => {
    await ingest(t, org, [request('2026-08-02T10:00:00Z', 3, 'modèle-ü')]);
    const res = await t.app.inject({ method: 'GET', url: query('tokens', range), headers: { authorization: `Bearer ${org.ownerKey}` } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const day = (JSON.parse(res.body) as { data: { date: string; by_model: { model_id: string }[] }[] }).data.find((d) => d.date === '2026-08-02')!;
    expect(day.by_model.map((m) => m.model_id)).toEqual(['modèle-ü']);
  });

  it('answers exactly as a process that keeps nothing (ANALYTICS_CACHE_MB=0)', async () => {
    const uncached = await t.otherProcess({ analyticsCacheMb: 0 });
    try {
      const kept = await tokensOf(t);
      expect(await tokensOf(uncached)).toEqual(kept);
      expect(kept.data.map((d) => d.date)).toEqual(['2026-08-01', '2026-08-02', '2026-08-03', '2026-08-04', '2026-08-05']);
      expect(kept.meta).toEqual({ org_id: org.orgId, start_date: range.startDate, end_date: range.endDate });
    } finally {
      await uncached.close();
    }
  });
});

describe('/tokens?group_by=model rows kept between requests', () => {
  it('a day already served shows a model stored after it was served, in model order', async () => {
    const before = modelInputs(await byModelOf(t));
    expect(before.filter(([date]) => date === '2026-08-03')).toEqual([
      ['2026-08-03', 'claude-sonnet-4-5', 300],
      ['2026-08-03', 'gpt-5', 1000],
    ]);
    // Two models of the day served, and one on a day outside the range.
    await ingest(t, org, [
      request('2026-08-03T13:00:00Z', 11, 'a-model'),
      request('2026-08-03T14:00:00Z', 2, 'claude-sonnet-4-5'),
      request('2026-07-30T14:00:00Z', 9),
    ]);
    const after = modelInputs(await byModelOf(t));
    expect(after.filter(([date]) => date === '2026-08-03')).toEqual([
      ['2026-08-03', 'a-model', 11],
      ['2026-08-03', 'claude-sonnet-4-5', 302],
      ['2026-08-03', 'gpt-5', 1000],
    ]);
    // Days the batch did not touch read as before.
    expect(after.filter(([date]) => date !== '2026-08-03')).toEqual(before.filter(([date]) => date !== '2026-08-03'));
  });

  it('another process on the same database sees a change to a day this process served', async () => {
    const other = await t.otherProcess();
    try {
      expect(await byModelOf(other)).toEqual(await byModelOf(t));
      await ingest(t, org, [request('2026-08-05T15:00:00Z', 20, 'gpt-5')]);
      expect(modelInputs(await byModelOf(other)).filter(([date]) => date === '2026-08-05')).toEqual([['2026-08-05', 'gpt-5', 27]]);
    } finally {
      await other.close();
    }
  });

  it('answers exactly as a process that keeps nothing (ANALYTICS_CACHE_MB=0), next to the ungrouped rows it shares the budget with', async () => {
    const uncached = await t.otherProcess({ analyticsCacheMb: 0 });
    try {
      const [kept, rows] = [await byModelOf(t), await tokensOf(t)];
      expect(await byModelOf(uncached)).toEqual(kept);
      expect(await tokensOf(uncached)).toEqual(rows);
      // The per-model rows of a day sum to the day's row.
      for (const day of rows.data) {
        expect(kept.data.filter((x) => x.date === day.date).reduce((n, x) => n + x.input_tokens, 0)).toBe(day.input_tokens);
      }
      expect(kept.meta).toEqual({ org_id: org.orgId, start_date: range.startDate, end_date: range.endDate });
    } finally {
      await uncached.close();
    }
  });
});

describe('DayCache', () => {
  it('misses on another version, drops the least recently used past its budget, and keeps nothing larger than it', () => {
    const cache = new DayBudget(20).cache<Buffer>('text');
    const text = (key: string, version: string) => cache.get(key, version)?.toString();
    const put = (key: string, version: string, value: string) => cache.set(key, version, Buffer.from(value), value.length);
    put('a', '1', 'aaaaa');
    put('b', '1', 'bbbbb');
    expect(text('a', '2')).toBeUndefined();
    expect(text('a', '1')).toBe('aaaaa'); // now b is the least recently used
    put('c', '1', 'cccccccccccc');
    expect([text('a', '1'), text('b', '1'), text('c', '1')]).toEqual(['aaaaa', undefined, 'cccccccccccc']);
    put('d', '1', 'd'.repeat(21));
    expect(text('d', '1')).toBeUndefined();
    put('a', '2', 'AAAAA');
    expect([text('a', '1'), text('a', '2')]).toEqual([undefined, 'AAAAA']);
  });

  it('gives each kind of value one cache, and the caches of a budget share it', () => {
    const budget = new DayBudget(20);
    const texts = budget.cache<string>('text');
    const counts = budget.cache<number>('count');
    expect(() => budget.cache<string>('text')).toThrow(/exists already/);
    texts.set('a', '1', 'aaaaaaaaaa', 10);
    counts.set('a', '1', 7, 10);
    expect([texts.get('a', '1'), counts.get('a', '1')]).toEqual(['aaaaaaaaaa', 7]);
    counts.set('b', '1', 8, 10); // past the budget: the least recently used entry, of either kind, goes
    expect([texts.get('a', '1'), counts.get('a', '1'), counts.get('b', '1')]).toEqual([undefined, 7, 8]);
  });
});
