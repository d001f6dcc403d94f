import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../helpers/test-app.js';
import { ingest, query } from './fixture.js';

/*
 * For random event sets, the rollup-backed answers equal a straightforward recomputation from
 * the events themselves, written here without any of the service's code.
 */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t?.close());

const catalogue = JSON.parse(readFileSync(new URL('../../src/analytics/model-catalogue.json', import.meta.url), 'utf8')) as {
  models: { id: string; multiplier: number }[];
};
const multiplier = (model: string) => catalogue.models.find((m) => m.id === model)?.multiplier ?? 1;
const MODELS = ['claude-sonnet-4-5', 'gpt-5-mini', 'no-such-model'];
const CLIENTS = ['terminal-ui', 'web', 'non-interactive-cli'] as const;
const LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'manual'] as const;
const DAYS = ['2026-08-20', '2026-08-28', '2026-09-01', '2026-09-02', '2026-09-03', '2026-09-05', '2026-09-06'];
const RANGE = { startDate: '2026-09-01', endDate: '2026-09-07' };
const rangeDays = ['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04', '2026-09-05', '2026-09-06', '2026-09-07'];

const arbEvent = fc.record({
  user: fc.integer({ min: 0, max: 3 }),
  day: fc.constantFrom(...DAYS),
  second: fc.integer({ min: 0, max: 86_399 }),
  client: fc.constantFrom(...CLIENTS),
  body: fc.oneof(
    fc.record({ type: fc.constant('session_start'), delegationLevel: fc.constantFrom('auto-high', 'spec', 'manual') }),
    fc.record({ type: fc.constant('message'), role: fc.constantFrom('user', 'assistant') }),
    fc.record({
      type: fc.constant('model_request'),
      model: fc.constantFrom(...MODELS),
      tier: fc.constantFrom('standard', 'thinking'),
      inputTokens: fc.integer({ min: 0, max: 5000 }),
      outputTokens: fc.integer({ min: 0, max: 5000 }),
      cacheReadTokens: fc.integer({ min: 0, max: 99_999 }),
      cacheWriteTokens: fc.integer({ min: 0, max: 500 }),
    }),
    fc.record({
      type: fc.constant('tool_call'),
      tool: fc.constantFrom('Read', 'Edit', 'Bash'),
      autonomyLevel: fc.constantFrom(...LEVELS),
      mcpServer: fc.option(fc.constantFrom('GitHub', 'github'), { nil: undefined }),
    }),
  ),
});
type Ev = { user: number; day: string; second: number; client: string; body: Record<string, unknown> };

const dayNo = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const percentileCont = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  return s[lo]! + (pos - lo) * ((s[Math.ceil(pos)] ?? s[lo]!) - s[lo]!);
};

describe('rollups equal a recomputation from the events', () => {
  it('activity, tokens, tools and users, for random event sets', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(arbEvent, { minLength: 1, maxLength: 60 }), fc.boolean(), async (events: Ev[], resend) => {
        const org = await t.createOrg(`prop-${++run}`);
        const users = await Promise.all([0, 1, 2, 3].map((i) => t.addUser(org, 'member', `u${i}@prop${run}.test`)));
        const wire = events.map((e, i) => ({
          id: `p${i}`,
          type: e.body.type,
          timestamp: new Date(Date.parse(`${e.day}T00:00:00Z`) + e.second * 1000).toISOString(),
          sessionId: 's',
          client: e.client,
          userId: users[e.user]!.id,
          ...e.body,
        }));
        await ingest(t, org, wire);
        if (resend) await ingest(t, org, wire.slice(0, Math.ceil(wire.length / 2))); // duplicates change nothing

        const of = (d: string) => events.filter((e) => e.day === d);
        const activeOn = (d: string) => new Set(of(d).map((e) => e.user));
        const activeIn = (d: string, w: number) => new Set(events.filter((e) => dayNo(e.day) <= dayNo(d) && dayNo(e.day) > dayNo(d) - w).map((e) => e.user));

        const activity = (await t.request<{ data: Record<string, unknown>[] }>('GET', query('activity', RANGE), { key: org.ownerKey })).body.data;
        expect(activity).toEqual(
          rangeDays.map((d) => ({
            date: d,
            daily_active_users: activeOn(d).size,
            weekly_active_users: activeIn(d, 7).size,
            monthly_active_users: activeIn(d, 30).size,
            daily_active_users_by_client: Object.fromEntries(
              CLIENTS.map((c) => [
                c,
                new Set(
                  of(d)
                    .filter((e) => e.client === c)
                    .map((e) => e.user),
                ).size,
              ]),
            ),
            sessions: of(d).filter((e) => e.body.type === 'session_start').length,
            messages: of(d).filter((e) => e.body.type === 'message').length,
            user_messages: of(d).filter((e) => e.body.role === 'user').length,
          })),
        );

        const tokens = (
          await t.request<{ data: { date: string; billable_tokens: number; cache_read_tokens: number; by_user: { billable_tokens: number }[] }[] }>(
            'GET',
            query('tokens', RANGE),
            { key: org.ownerKey },
          )
        ).body.data;
        for (const row of tokens) {
          const reqs = of(row.date).filter((e) => e.body.type === 'model_request');
          // Exact sum in thousandths of a credit... tenths of a token: multiply through and round once.
          const exact = reqs.reduce((s, e) => {
            const b = e.body as Record<string, number>;
            return (
              s +
              BigInt(Math.round(multiplier(e.body.model as string) * 1000)) *
                BigInt(10 * (b.inputTokens! + b.cacheWriteTokens! + b.outputTokens!) + b.cacheReadTokens!)
            );
          }, 0n);
          expect(row.billable_tokens).toBe(Number((exact + 5000n) / 10000n));
          expect(row.cache_read_tokens).toBe(reqs.reduce((s, e) => s + (e.body.cacheReadTokens as number), 0));
          expect(row.by_user).toHaveLength(new Set(reqs.map((e) => e.user)).size);
        }

        const tools = (await t.request<{ data: Record<string, unknown>[] }>('GET', query('tools', RANGE), { key: org.ownerKey })).body.data;
        for (const row of tools) {
          const d = row.date as string;
          const calls = of(d).filter((e) => e.body.type === 'tool_call');
          const ratios = [...activeOn(d)].map(
            (user) => calls.filter((e) => e.user === user).length / Math.max(of(d).filter((e) => e.user === user && e.body.role === 'user').length, 1),
          );
          expect(row.tool_calls).toBe(calls.length);
          expect(row.mcp_users_with_mcp).toBe(new Set(calls.filter((e) => e.body.mcpServer !== undefined).map((e) => e.user)).size);
          expect(row.autonomy_ratio_avg).toBeCloseTo(ratios.length ? ratios.reduce((a, b) => a + b, 0) / ratios.length : 0, 9);
          expect(row.autonomy_ratio_p50).toBeCloseTo(percentileCont(ratios, 0.5), 9);
          expect(row.autonomy_ratio_p90).toBeCloseTo(percentileCont(ratios, 0.9), 9);
          const mcp = (row.mcp_by_server as { server: string; invocations: number }[]).map((s) => [s.server, s.invocations]);
          for (const [server, n] of mcp) expect(n).toBe(calls.filter((e) => e.body.mcpServer === server).length);
        }

        const userRows = (
          await t.request<{ data: { user_id: string; date: string; tool_calls: number; primary_model: string | null; primary_model_tier: string | null }[] }>(
            'GET',
            query('users', { ...RANGE, limit: 100 }),
            { key: org.ownerKey },
          )
        ).body.data;
        const credits = (e: Ev) => {
          const b = e.body as Record<string, number>;
          return (
            BigInt(Math.round(multiplier(e.body.model as string) * 1000)) *
            BigInt(10 * (b.inputTokens! + b.cacheWriteTokens! + b.outputTokens!) + b.cacheReadTokens!)
          );
        };
        const primary = (reqs: Ev[]) => {
          if (reqs.length === 0) return { primary_model: null, primary_model_tier: null };
          const sum = (xs: Ev[]) => xs.reduce((s, e) => s + credits(e), 0n);
          const models = [...new Set(reqs.map((e) => e.body.model as string))].sort();
          const model = models.reduce((best, m) => (sum(reqs.filter((e) => e.body.model === m)) > sum(reqs.filter((e) => e.body.model === best)) ? m : best));
          const mine = reqs.filter((e) => e.body.model === model);
          const tier = ['standard', 'thinking']
            .filter((x) => mine.some((e) => e.body.tier === x))
            .reduce((best, x) => (sum(mine.filter((e) => e.body.tier === x)) > sum(mine.filter((e) => e.body.tier === best)) ? x : best));
          return { primary_model: model, primary_model_tier: tier };
        };
        const expectedRows = rangeDays.flatMap((d) =>
          [...activeOn(d)].map((user) => ({
            user_id: users[user]!.id,
            date: d,
            tool_calls: of(d).filter((e) => e.user === user && e.body.type === 'tool_call').length,
            ...primary(of(d).filter((e) => e.user === user && e.body.type === 'model_request')),
          })),
        );
        const key = (r: { user_id: string; date: string }) => `${r.user_id}|${r.date}`;
        expect(
          userRows.map((r) => ({
            user_id: r.user_id,
            date: r.date,
            tool_calls: r.tool_calls,
            primary_model: r.primary_model,
            primary_model_tier: r.primary_model_tier,
          })),
        ).toEqual(expectedRows.sort((x, y) => (key(x) < key(y) ? -1 : 1)));
      }),
      { numRuns: 30 },
    );
  });
});
