import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { metrics, sum, YESTERDAY, YESTERDAY_MS, type Point } from './otlp-json.js';
import type { Row } from './reports.js';

/*
 * Token data points are counted as model requests by their parts, without an event each
 * (docs/otlp.md, Rollups); other points make events. For random exports of both, split in two,
 * with points repeated within an export and the exports sent again, every analytics report shows
 * exactly what the same activity sent as native events shows.
 */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-1', 'no-such-model'];
const TYPES = { input: 'inputTokens', output: 'outputTokens', cacheRead: 'cacheReadTokens', cacheCreation: 'cacheWriteTokens' } as const;
const ENTRIES = { cli: 'terminal-ui', 'sdk-ts': 'non-interactive-cli' } as const;

const arbPoint = fc
  .record({
    commit: fc.boolean(),
    user: fc.integer({ min: 0, max: 2 }),
    entry: fc.constantFrom(...(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])),
    model: fc.constantFrom(...MODELS),
    type: fc.constantFrom(...(Object.keys(TYPES) as (keyof typeof TYPES)[])),
    minute: fc.integer({ min: 0, max: 2 }),
    value: fc.integer({ min: 0, max: 5000 }),
  })
  .map((p) => (p.commit ? { ...p, value: p.value % 4 } : p));
type P = { commit: boolean; user: number; entry: keyof typeof ENTRIES; model: string; type: keyof typeof TYPES; minute: number; value: number };

/** What makes two points the same one (their key): everything but the value. */
const keyOf = (p: P) => (p.commit ? ['commit', p.user, p.entry, p.minute] : ['tokens', p.user, p.entry, p.model, p.type, p.minute]).join('|');
const email = (user: number) => `u${user}@tokens.test`;
const attrsOf = (p: P) => ({
  'session.id': `s${p.user}`,
  'user.email': email(p.user),
  'app.entrypoint': p.entry,
  ...(p.commit ? {} : { model: p.model, type: p.type }),
});
const point = (p: P): Point => ({ attrs: attrsOf(p), value: p.value, timeMs: YESTERDAY_MS + p.minute * 60_000, startMs: YESTERDAY_MS - 60_000 });

/** An export of these points, in their order: each run of points of one metric is a metric of its own. */
function exportOf(points: P[]) {
  const runs: P[][] = [];
  for (const p of points) {
    const last = runs[runs.length - 1];
    if (last && last[0]!.commit === p.commit) last.push(p);
    else runs.push([p]);
  }
  return metrics(
    { 'service.name': 'claude-code' },
    runs.map((run) => sum(run[0]!.commit ? 'claude_code.commit.count' : 'claude_code.token.usage', run.map(point))),
  );
}

/** Whether a point makes nothing (no tokens, no commits): then it is not kept as seen either. */
const empty = (p: P) => p.value === 0;

/**
 * What counts: of each point, what the first export that has it makes of it. A token point is one
 * request, so its last that makes something counts; a commit point's events are numbered, and of
 * events sharing an id the last counts, so as many count as the most any of them makes.
 */
function counted(exports: P[][]): P[] {
  const kept = new Map<string, P>();
  for (const list of exports) {
    const made = new Map<string, P>();
    for (const p of list) {
      if (empty(p)) continue;
      const before = made.get(keyOf(p));
      made.set(keyOf(p), p.commit && before !== undefined && before.value > p.value ? before : p);
    }
    for (const [key, p] of made) if (!kept.has(key)) kept.set(key, p);
  }
  return [...kept.values()];
}

/** The native events of the points that count: a model request of one kind of tokens, or a commit per unit. */
function nativeEvents(points: P[], userIds: string[]) {
  return points.flatMap((p, i) => {
    const base = {
      timestamp: new Date(YESTERDAY_MS + p.minute * 60_000).toISOString(),
      sessionId: `s${p.user}`,
      client: ENTRIES[p.entry],
      userId: userIds[p.user],
    };
    if (p.commit) return Array.from({ length: p.value }, (_, j) => ({ id: `c${i}-${j}`, type: 'git_commit', ...base }));
    if (p.value === 0) return [];
    const tokens = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, [TYPES[p.type]]: p.value };
    return [{ id: `t${i}`, type: 'model_request', model: p.model, tier: 'standard', ...tokens, ...base }];
  });
}

/** A report with each user id written as its user's email, and lists of users in the emails' order, so two organizations compare. */
async function report(org: Org, ids: Map<string, string>, path: string): Promise<unknown> {
  const res = await t.request<{ data: Row[] }>('GET', `/api/v1/analytics/${path}${path.includes('?') ? '&' : '?'}startDate=${YESTERDAY}&endDate=${YESTERDAY}`, {
    key: org.ownerKey,
  });
  expect(res.status).toBe(200);
  const named = JSON.parse(JSON.stringify(res.body.data), (k, v: unknown) => (k === 'user_id' && typeof v === 'string' ? (ids.get(v) ?? v) : v)) as unknown;
  const order = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const items = v.map(order);
      return items.every((x) => typeof x === 'object' && x !== null && 'user_id' in x)
        ? items.sort((a, b) => String((a as Row).user_id).localeCompare(String((b as Row).user_id)))
        : items;
    }
    return typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, order(x)])) : v;
  };
  return order(named);
}

async function orgWithUsers(name: string) {
  const org = await t.createOrg(name);
  const users = await Promise.all([0, 1, 2].map((u) => t.addUser(org, 'member', email(u))));
  return { org, userIds: users.map((u) => u.id), ids: new Map(users.map((u) => [u.id, u.email])) };
}

describe('token data points counted by their parts', () => {
  it('give the analytics of the same activity as native events, for random exports split, repeated and sent again', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(arbPoint, { selector: keyOf, minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 5000 }) }), { maxLength: 4 }),
        fc.nat(),
        async (unique, repeats, cut) => {
          run++;
          // Points repeated later in the export, with other values: the last of each counts.
          const list = [
            ...unique,
            ...repeats.map((r) => {
              const p = unique[r.at % unique.length]!;
              return { ...p, value: p.commit ? r.value % 4 : r.value };
            }),
          ];
          const at = cut % (list.length + 1);
          const exports = [list.slice(0, at), list.slice(at)].filter((e) => e.length > 0);
          const viaOtlp = await orgWithUsers(`tokens-otlp-${run}`);
          const native = await orgWithUsers(`tokens-native-${run}`);

          for (const e of exports) expect((await t.request('POST', '/v1/metrics', { key: viaOtlp.org.ownerKey, body: exportOf(e) })).status).toBe(200);
          // Sent again, whole and in one export: nothing counts twice.
          expect((await t.request('POST', '/v1/metrics', { key: viaOtlp.org.ownerKey, body: exportOf(list) })).status).toBe(200);
          const events = nativeEvents(counted(exports), native.userIds);
          if (events.length > 0) expect((await t.request('POST', '/api/v1/telemetry/events', { key: native.org.ownerKey, body: { events } })).status).toBe(202);

          for (const path of ['tokens', 'tokens?group_by=model', 'activity', 'activity?group_by=client', 'productivity', 'users']) {
            expect(await report(viaOtlp.org, viaOtlp.ids, path)).toEqual(await report(native.org, native.ids, path));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
