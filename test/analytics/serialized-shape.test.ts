import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DailyUsageResponse, TokensResponse, UsersResponse } from '../../src/analytics/schemas.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { event, ingest, query, tokens } from './fixture.js';

// /tokens and /users send rows the service serialized ahead and kept: their bytes must be their
// response schema's shape and nothing else, as if Fastify had serialized the parsed answer with it.
let t: TestApp;
let org: Org;
let ann: { id: string; key: string };
let bob: { id: string };
let bot: string;
const range = { startDate: '2026-09-01', endDate: '2026-09-04' };

/** `value` with each object's properties in the order of its schema, and only those: what a serializer compiled from `schema` writes. */
function inSchemaOrder(schema: TSchema, value: unknown): unknown {
  if (schema[Kind] === 'Union')
    return inSchemaOrder(
      (schema.anyOf as TSchema[]).find((s) => Value.Check(s, value))!,
      value,
    );
  if (schema[Kind] === 'Array') return (value as unknown[]).map((v) => inSchemaOrder(schema.items as TSchema, v));
  if (schema[Kind] === 'Object') {
    const v = value as Record<string, unknown>;
    return Object.fromEntries(Object.entries(schema.properties as Record<string, TSchema>).map(([k, s]) => [k, inSchemaOrder(s, v[k])]));
  }
  return value;
}

async function body(app: FastifyInstance, url: string, key = org.ownerKey) {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  return res.body;
}

/** Checks the answer against its schema, byte for byte, and returns it parsed. */
function expectSchemaShape(schema: TSchema, text: string) {
  const parsed = JSON.parse(text) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
  expect(Value.Errors(schema, parsed).First()).toBeUndefined();
  expect(text).toBe(JSON.stringify(inSchemaOrder(schema, parsed)));
  return parsed;
}

const session = (userId: string, at: string, level: string) => event(userId, 'session_start', at, 'terminal-ui', { delegationLevel: level });
const request = (userId: string, at: string, model: string, input: number) =>
  event(userId, 'model_request', at, 'web', tokens(model, 'standard', input, 7, 30, 2));

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('serialized-shape-org');
  ann = await t.addUser(org, 'member', 'ann@serialized-shape.test');
  bob = await t.addUser(org, 'member', 'bob@serialized-shape.test');
  await ingest(t, org, [
    session(ann.id, '2026-09-01T09:00:00Z', 'spec'),
    request(ann.id, '2026-09-01T09:01:00Z', 'claude-sonnet-4-5', 1000),
    request(ann.id, '2026-09-01T09:02:00Z', 'modèle "ü"\\', 333),
    event(ann.id, 'message', '2026-09-01T09:03:00Z', 'terminal-ui', { role: 'user' }),
    event(ann.id, 'file_change', '2026-09-01T09:04:00Z', 'terminal-ui', { path: 'src/a.ts', change: 'created' }),
    event(ann.id, 'file_change', '2026-09-01T09:05:00Z', 'terminal-ui', { path: 'x.py', change: 'edited' }),
    // No session on the 2nd: its level comes from the 1st.
    event(ann.id, 'tool_call', '2026-09-02T09:00:00Z', 'terminal-ui', { tool: 'Read', autonomyLevel: 'manual' }),
    request(ann.id, '2026-09-02T09:01:00Z', 'gpt-5', 10),
    // Never a session: manual.
    event(bob.id, 'tool_call', '2026-09-02T10:00:00Z', 'web', { tool: 'Edit', autonomyLevel: 'auto-high' }),
    session(bob.id, '2026-09-04T10:00:00Z', 'auto-low'),
    request(bob.id, '2026-09-04T10:01:00Z', 'gpt-5', 5),
  ]);
  // A service account's requests: a by_user entry with user_email null.
  const account = await t.request<{ id: string }>('POST', '/api/v0/organization/service-accounts', {
    key: org.ownerKey,
    body: { name: 'ci bot', role: 'member' },
  });
  bot = account.body.id;
  const key = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: bot, name: 'ci' } });
  const res = await t.request('POST', '/api/v1/telemetry/events', {
    key: key.body.key,
    body: { events: [event(undefined as never, 'model_request', '2026-09-02T11:00:00Z', 'non-interactive-cli', tokens('gpt-5', 'thinking', 50, 5, 0, 0))] },
  });
  expect(res.status).toBe(202);
});
afterAll(() => t?.close());

describe('/tokens and /users bytes are their schema serialized', () => {
  const cases = () => [
    { url: query('tokens', range), schema: TokensResponse },
    { url: query('tokens', { ...range, group_by: 'model' }), schema: TokensResponse },
    { url: query('users', range), schema: UsersResponse },
    { url: query('users', { ...range, limit: 1 }), schema: UsersResponse },
    { url: query('users', { ...range, limit: 1, cursor: [ann.id, bob.id].sort()[0] }), schema: UsersResponse },
    { url: query('users', { ...range, user_id: ann.id }), schema: UsersResponse },
    { url: query('users', { ...range, user_id: bot }), schema: UsersResponse },
  ];

  it('every variant validates against its schema, in its order, with nothing else, from kept rows as when built', async () => {
    for (const { url, schema } of cases()) {
      const built = await body(t.app, url);
      expectSchemaShape(schema, built);
      expect(await body(t.app, url), url).toBe(built);
    }
  });

  it('holds the rows the fixture made: levels from earlier days, null emails, text beyond ASCII', async () => {
    const tokensDays = expectSchemaShape(TokensResponse, await body(t.app, query('tokens', range)));
    expect(tokensDays.data.map((d) => d.date)).toEqual(['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04']);
    const byUser = tokensDays.data[1]!.by_user as { user_id: string; user_email: string | null }[];
    expect(byUser.find((u) => u.user_id === bot)!.user_email).toBeNull();
    expect(tokensDays.meta).toEqual({ org_id: org.orgId, ...{ start_date: range.startDate, end_date: range.endDate } });
    const users = expectSchemaShape(UsersResponse, await body(t.app, query('users', range)));
    const levels = users.data.map((r) => [r.user_id === ann.id ? 'ann' : r.user_id === bob.id ? 'bob' : 'bot', r.date, r.delegation_level]);
    expect(levels).toEqual(
      expect.arrayContaining([
        ['ann', '2026-09-01', 'spec'],
        ['ann', '2026-09-02', 'spec'],
        ['bob', '2026-09-02', 'manual'],
        ['bob', '2026-09-04', 'auto-low'],
        ['bot', '2026-09-02', 'manual'],
      ]),
    );
    expect(users.data.find((r) => r.user_id === bob.id)!.user_email).toBe('bob@serialized-shape.test');
    expect(users.meta).toEqual({ org_id: org.orgId, start_date: range.startDate, end_date: range.endDate, has_more: false, next_cursor: null });
  });

  it("a member's own daily usage is its schema serialized", async () => {
    const own = expectSchemaShape(DailyUsageResponse, await body(t.app, `/api/v0/usage/daily?startDate=${range.startDate}&endDate=${range.endDate}`, ann.key));
    expect(own.data.map((r) => [r.date, r.delegation_level])).toEqual([
      ['2026-09-01', 'spec'],
      ['2026-09-02', 'spec'],
    ]);
  });

  it('a process that keeps nothing (ANALYTICS_CACHE_MB=0) sends the same bytes', async () => {
    const uncached = await t.otherProcess({ analyticsCacheMb: 0 });
    try {
      for (const { url } of cases()) expect(await body(uncached, url), url).toBe(await body(t.app, url));
    } finally {
      await uncached.close();
    }
  });
});
