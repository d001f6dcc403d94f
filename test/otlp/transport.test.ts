import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamKey, streamSetKey } from '../../src/otlp/mappings/index.js';
import { decodeToPlain, encode, messages } from '../../src/otlp/proto.js';
import { metricPoints } from '../../src/otlp/records.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { logs, metrics, sum, YESTERDAY, YESTERDAY_MS } from './otlp-json.js';
import { exportJson, yesterdayRow, type Row } from './reports.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const send = (org: Org, signal: string, payload: Buffer | string, headers: Record<string, string>, key = org.ownerKey) =>
  t.app.inject({ method: 'POST', url: `/v1/${signal}`, headers: { authorization: `Bearer ${key}`, ...headers }, payload });
const json = (org: Org, signal: string, body: unknown, key = org.ownerKey) => exportJson(t, org, signal, body, key);
const day = (org: Org, report: string) => yesterdayRow(t, org, report);
const claude = { 'service.name': 'claude-code' };
const tokensOf = (value: number, o: { startMs?: number; timeMs?: number; temporality?: 1 | 2 } = {}) =>
  metrics(claude, [
    sum('claude_code.token.usage', [{ attrs: { 'session.id': 's', type: 'input', model: 'claude-sonnet-4-5' }, value, startMs: o.startMs, timeMs: o.timeMs }], {
      temporality: o.temporality,
    }),
  ]);

describe('idempotency and temporality', () => {
  it('a byte-identical retry and a re-batched export count once', async () => {
    const org = await t.createOrg('retry');
    const body = logs(claude, [
      { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 1 } },
      { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 2 } },
      { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 3 } },
    ]);
    expect((await json(org, 'logs', body)).statusCode).toBe(200);
    expect((await json(org, 'logs', body)).statusCode).toBe(200);
    const records = body.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    const regrouped = (list: typeof records) => ({
      resourceLogs: [{ ...body.resourceLogs[0], scopeLogs: [{ scope: { name: 'other-batch' }, logRecords: list }] }],
    });
    await json(org, 'logs', regrouped(records.slice(0, 2)));
    await json(org, 'logs', regrouped(records.slice(1)));
    expect(await day(org, 'activity')).toMatchObject({ user_messages: 3 });
    // Seen and new records in one export: only the new one counts.
    const fourth = logs(claude, [{ name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 4 } }]).resourceLogs[0]!.scopeLogs[0]!
      .logRecords;
    await json(org, 'logs', regrouped([records[0]!, ...fourth, records[2]!]));
    expect(await day(org, 'activity')).toMatchObject({ user_messages: 4 });

    const delta = tokensOf(700);
    await json(org, 'metrics', delta);
    await json(org, 'metrics', delta);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 700 });
  });

  it('a record sent twice in one export counts once, and the events one record makes all count', async () => {
    const org = await t.createOrg('twice');
    const prompt = { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', 'event.sequence': 1, command_name: '/review' } };
    const codex = { name: 'codex.tool_result', attrs: { 'conversation.id': 'c', call_id: 'call-1', tool_name: 'shell' } };
    // The prompt (a message and its slash command) and a Codex call (kept in otlp_seen, not in a group), each twice.
    expect((await json(org, 'logs', logs(claude, [prompt, prompt]))).statusCode).toBe(200);
    expect((await json(org, 'logs', logs({ 'service.name': 'codex_cli_rs' }, [codex, codex]))).statusCode).toBe(200);
    expect(await day(org, 'activity')).toMatchObject({ user_messages: 1 });
    expect(await day(org, 'tools')).toMatchObject({ tool_calls: 1, slash_commands_invocations: 1 });
    const point = { attrs: { 'session.id': 's', type: 'input', model: 'claude-sonnet-4-5' }, value: 700 };
    expect((await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', [point, point])]))).statusCode).toBe(200);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 700 });
  });

  it('the delta points of one collection count once however they are split, re-batched or sent at once; past the bound they are refused', async () => {
    const org = await t.createOrg('collections');
    const point = (i: number, timeMs = YESTERDAY_MS) => ({
      attrs: { 'session.id': `s${i}`, type: 'input', model: 'claude-sonnet-4-5' },
      value: 10 + i,
      timeMs,
    });
    const exportOf = (ids: number[], timeMs?: number) =>
      metrics(claude, [
        sum(
          'claude_code.token.usage',
          ids.map((i) => point(i, timeMs)),
        ),
      ]);
    const collections = async () =>
      (
        await t.db.query<{ n: number; bytes: number }>(
          `SELECT count(*)::int AS n, coalesce(sum(octet_length(keys)), 0)::int AS bytes FROM otlp_seen_groups WHERE org_id = $1`,
          [org.orgId],
        )
      )[0];

    // A new collection, then an export adding to it, then three at once, overlapping.
    await json(org, 'metrics', exportOf([0, 1, 2]));
    await json(org, 'metrics', exportOf([2, 3]));
    const together = await Promise.all([
      json(org, 'metrics', exportOf([3, 4, 5])),
      json(org, 'metrics', exportOf([4, 5])),
      json(org, 'metrics', exportOf([0, 5, 6])),
    ]);
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 10 + 11 + 12 + 13 + 14 + 15 + 16 });
    expect(await collections()).toEqual({ n: 1, bytes: 7 * 24 });

    // Three exports at once creating the same new collection (another time).
    const later = YESTERDAY_MS + 60_000;
    await Promise.all([
      json(org, 'metrics', exportOf([0, 1], later)),
      json(org, 'metrics', exportOf([1, 2], later)),
      json(org, 'metrics', exportOf([0, 2], later)),
    ]);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 91 + 10 + 11 + 12 });
    expect(await collections()).toEqual({ n: 2, bytes: 10 * 24 });
  });

  it('counts Claude Code events by session and minute (one row each), other log records one row each, and a retry of either once', async () => {
    const org = await t.createOrg('log-groups');
    const prompt = (session: string, sequence: number, timeMs: number) => ({
      name: 'claude_code.user_prompt',
      timeMs,
      attrs: { 'session.id': session, 'event.sequence': sequence },
    });
    const body = logs(claude, [
      prompt('a', 1, YESTERDAY_MS),
      prompt('a', 2, YESTERDAY_MS + 1_000),
      prompt('a', 3, YESTERDAY_MS + 60_000),
      prompt('b', 1, YESTERDAY_MS),
    ]);
    const codex = logs({ 'service.name': 'codex_cli_rs' }, [{ name: 'codex.user_prompt', attrs: { 'conversation.id': 'c-1' } }]);
    for (let i = 0; i < 2; i++) {
      expect((await json(org, 'logs', body)).statusCode).toBe(200);
      expect((await json(org, 'logs', codex)).statusCode).toBe(200);
    }
    expect(await day(org, 'activity')).toMatchObject({ user_messages: 5 });
    const groups = await t.db.query<{ bytes: number }>(`SELECT octet_length(keys) AS bytes FROM otlp_seen_groups WHERE org_id = $1 ORDER BY 1`, [org.orgId]);
    expect(groups.map((g) => g.bytes)).toEqual([24, 24, 48]);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM otlp_seen WHERE org_id = $1`, [org.orgId])).toEqual([{ n: 1 }]);
  });

  it('refuses the points that would take one collection past 20,000, and still counts the rest', async () => {
    const org = await t.createOrg('collection-bound');
    const points = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ attrs: { 'session.id': `s${from + i}`, type: 'input', model: 'claude-sonnet-4-5' }, value: 1 }));
    const first = await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', points(0, 20_001))]));
    expect(first.json()).toEqual({
      partialSuccess: {
        rejectedDataPoints: 1,
        errorMessage: expect.stringContaining('more than 20000 data points of one metric with the same start and time'),
      },
    });
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 20_000 });
    // The collection is full: another new point is refused, a point seen before still counts nothing.
    const second = await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', points(19_999, 20_002))]));
    expect(second.json()).toEqual({ partialSuccess: { rejectedDataPoints: 2, errorMessage: expect.stringContaining('more than 20000') } });
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 20_000 });
  });

  it('refuses the cumulative streams that would take one metric past 20,000, and still counts the rest', async () => {
    const org = await t.createOrg('stream-set-bound');
    const start = YESTERDAY_MS - 3_600_000;
    const points = (from: number, to: number, value: number, minute: number) =>
      Array.from({ length: to - from }, (_, i) => ({
        attrs: { 'session.id': `s${from + i}`, type: 'input', model: 'claude-sonnet-4-5' },
        value,
        startMs: start,
        timeMs: start + minute * 60_000,
      }));
    const first = await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', points(0, 20_001, 1, 1), { temporality: 2 })]));
    expect(first.json()).toEqual({
      partialSuccess: { rejectedDataPoints: 1, errorMessage: expect.stringContaining('more than 20000 cumulative streams of one metric') },
    });
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 20_000 });
    // The set is full: a stream in it still counts its growth, new ones are refused.
    const second = await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', points(19_999, 20_002, 3, 2), { temporality: 2 })]));
    expect(second.json()).toEqual({ partialSuccess: { rejectedDataPoints: 2, errorMessage: expect.stringContaining('more than 20000') } });
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 20_000 + 2 });
  });

  it('cumulative streams become deltas, a retry adds nothing, a reset (later start or lower value) starts again, also in another process', async () => {
    const org = await t.createOrg('cumulative');
    const start = YESTERDAY_MS - 3_600_000;
    const point = (value: number, minute: number, startMs = start) => tokensOf(value, { temporality: 2, startMs, timeMs: start + minute * 60_000 });
    await json(org, 'metrics', point(100, 1));
    await json(org, 'metrics', point(250, 2));
    await json(org, 'metrics', point(250, 2)); // a retry
    await json(org, 'metrics', point(200, 1)); // late: before the last point counted
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 250 });
    // orgctl restarted: a new app on the same database keeps the stream's state.
    const other = await t.otherProcess();
    try {
      const res = await other.inject({
        method: 'POST',
        url: '/v1/metrics',
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(point(300, 3)),
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 300 });
    await json(org, 'metrics', point(40, 4, start + 3.5 * 60_000)); // restarted exporter: a later start
    await json(org, 'metrics', point(60, 5, start + 3.5 * 60_000));
    await json(org, 'metrics', point(10, 6, start + 3.5 * 60_000)); // lower value: a reset
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 300 + 40 + 20 + 10 });
    await json(org, 'metrics', point(10, 6, start + 3.5 * 60_000)); // the reset retried
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 300 + 40 + 20 + 10 });
    // The stream's state is kept in its set's row (its metric's, resource's and scope's), under the
    // stream's key as every release computed it: 48 bytes, the key, its start, last time and value.
    const last = metricPoints(point(10, 6, start + 3.5 * 60_000)).points[0]!;
    const sets = await t.db.query<{ k: string; states: string }>(
      `SELECT translate(encode(set_key, 'base64'), '+/', '-_') AS k, encode(states, 'hex') AS states FROM otlp_stream_sets WHERE org_id = $1`,
      [org.orgId],
    );
    expect(sets.map((r) => r.k)).toEqual([streamSetKey(last).slice('otlp:'.length)]);
    const packed = Buffer.from(sets[0]!.states, 'hex');
    expect(packed.length).toBe(48);
    expect(packed.subarray(0, 24).toString('base64url')).toBe(streamKey(last).slice('otlp:'.length));
    expect([packed.readBigUInt64BE(24), packed.readBigUInt64BE(32), packed.readDoubleBE(40)]).toEqual([last.startNs, last.timeNs, 10]);
    // The stream's state alone counted each step once: no key was recorded for them.
    for (const table of ['otlp_seen', 'otlp_seen_groups'])
      expect(await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [org.orgId]), table).toEqual([{ n: 0 }]);
  });

  it('several points of a cumulative stream in one export count step by step, and exports of the same streams at once count each step once', async () => {
    const org = await t.createOrg('cumulative-at-once');
    const start = YESTERDAY_MS - 3_600_000;
    const attrs = (session: string) => ({ 'session.id': session, type: 'output', model: 'claude-sonnet-4-5' });
    const at = (minute: number) => start + minute * 60_000;
    // One export holding three steps of stream a, out of order and one of them twice, and one step of b.
    const steps = metrics(claude, [
      sum(
        'claude_code.token.usage',
        [
          { attrs: attrs('a'), value: 300, startMs: start, timeMs: at(3) },
          { attrs: attrs('a'), value: 100, startMs: start, timeMs: at(1) },
          { attrs: attrs('b'), value: 50, startMs: start, timeMs: at(1) },
          { attrs: attrs('a'), value: 180, startMs: start, timeMs: at(2) },
          { attrs: attrs('a'), value: 999, startMs: start, timeMs: at(3) }, // the same time again: not a step
        ],
        { temporality: 2 },
      ),
    ]);
    // Sent four times at once: the first to reach the streams creates them, the others wait for it and add nothing.
    const answers = await Promise.all([1, 2, 3, 4].map(() => json(org, 'metrics', steps)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await day(org, 'tokens')).toMatchObject({ output_tokens: 300 + 50 });
    // Later points of both streams, in several exports at once in different orders: each step counts once.
    const later = (first: string, second: string, minute: number, growth: number) =>
      metrics(claude, [
        sum(
          'claude_code.token.usage',
          [
            { attrs: attrs(first), value: (first === 'a' ? 300 : 50) + growth, startMs: start, timeMs: at(minute) },
            { attrs: attrs(second), value: (second === 'a' ? 300 : 50) + growth, startMs: start, timeMs: at(minute) },
          ],
          { temporality: 2 },
        ),
      ]);
    const more = await Promise.all(
      [later('a', 'b', 4, 10), later('b', 'a', 4, 10), later('b', 'a', 5, 25), later('a', 'b', 5, 25)].map((body) => json(org, 'metrics', body)),
    );
    expect(more.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    // Whichever arrived first, each stream ends at its latest value: every step counted once, or
    // (minute 4 after minute 5) not at all.
    expect(await day(org, 'tokens')).toMatchObject({ output_tokens: 300 + 25 + 50 + 25 });
  });
});

describe('attribution', () => {
  it("a manager's key attributes by user.email; an unknown email is rejected into partialSuccess and the rest is stored; a member's key keeps its own records", async () => {
    const org = await t.createOrg('attribution');
    const manager = await t.addUser(org, 'manager');
    const member = await t.addUser(org, 'member');
    const other = await t.addUser(org, 'member');
    const prompt = (email: string, seq: number) => ({
      name: 'claude_code.user_prompt',
      attrs: { 'session.id': `s-${email}`, 'event.sequence': seq, 'user.email': email },
    });
    const res = await json(org, 'logs', logs(claude, [prompt(member.email.toUpperCase(), 1), prompt('ghost@nowhere.test', 2)]), manager.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      partialSuccess: { rejectedLogRecords: 1, errorMessage: expect.stringContaining('ghost@nowhere.test is not a user of this organization') },
    });
    await json(org, 'logs', logs(claude, [prompt(other.email, 3)]), member.key);
    const rows = (await t.request<{ data: Row[] }>('GET', `/api/v1/analytics/users?startDate=${YESTERDAY}&endDate=${YESTERDAY}`, { key: org.ownerKey })).body
      .data;
    expect(new Map(rows.map((r) => [r.user_email, r.user_messages]))).toEqual(new Map([[member.email, 2]]));
  });
});

describe('transport', () => {
  it('protobuf in, protobuf out; gzip accepted; partialSuccess encoded in protobuf', async () => {
    const org = await t.createOrg('protobuf');
    const body = tokensOf(1234);
    const proto = encode(messages.metricsRequest, body as never);
    const res = await send(org, 'metrics', gzipSync(proto), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    expect(res.rawPayload.length).toBe(0);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 1234 });
    const bad = encode(messages.metricsRequest, metrics(claude, [sum('claude_code.commit.count', [{ attrs: {}, value: -3 }])]) as never);
    const partial = await send(org, 'metrics', bad, { 'content-type': 'application/x-protobuf' });
    expect(decodeToPlain(messages.metricsResponse, partial.rawPayload)).toEqual({
      partialSuccess: { rejectedDataPoints: '1', errorMessage: expect.stringContaining('below 0') },
    });
  });

  it('gzip of any size: a small body inflating past 1 MiB and a large one are read whole; a body that is not gzip is refused, small or large', async () => {
    const org = await t.createOrg('gzip-sizes');
    const gzip = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    // Small bodies are inflated at once up to 1 MiB, the rest the other way (docs/otlp.md): JSON
    // padded with 2 MiB of spaces is a few KB; with random whitespace, tens of KB.
    const small = gzipSync(JSON.stringify(tokensOf(70)) + ' '.repeat(2 * 1024 * 1024));
    const noise = Array.from(randomBytes(128 * 1024), (b) => ' \n\t\r'[b % 4]).join('');
    const large = gzipSync(JSON.stringify(tokensOf(7, { timeMs: YESTERDAY_MS + 1000 })) + noise);
    expect(small.length).toBeLessThan(16 * 1024);
    expect(large.length).toBeGreaterThan(16 * 1024);
    for (const body of [small, large]) expect((await send(org, 'metrics', body, gzip)).statusCode).toBe(200);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 77 });
    const truncated = small.subarray(0, small.length - 8);
    for (const body of [Buffer.from('not gzip'), truncated, randomBytes(64 * 1024)]) {
      const res = await send(org, 'metrics', body, gzip);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: 'The body is not valid gzip.' });
    }
  });

  it('refuses a record dated more than 5 minutes ahead whole, with every event it makes, and counts the rest of its export', async () => {
    const org = await t.createOrg('ahead');
    const ahead = Date.now() + 3_600_000;
    // A Droid point makes its session's event beside its own: a point dated ahead loses both. Sent
    // twice: the retry counts nothing, so what the first recorded as seen was the other point's.
    const points = metrics({ 'service.name': 'droid' }, [
      sum('droid.git.commits', [
        { attrs: { 'session.id': 'ahead' }, value: 3, startMs: ahead - 60_000, timeMs: ahead },
        { attrs: { 'session.id': 'now' }, value: 2 },
      ]),
    ]);
    for (let i = 0; i < 2; i++) {
      const res = await json(org, 'metrics', points);
      expect(res.json()).toEqual({ partialSuccess: { rejectedDataPoints: 1, errorMessage: expect.stringContaining('more than 5 minutes in the future') } });
    }
    expect(await day(org, 'productivity')).toMatchObject({ git_commits: 2 });
    expect(await day(org, 'activity')).toMatchObject({ sessions: 1 });
    // A prompt and its slash command dated ahead, before one that is not; sent twice too.
    const body = logs(claude, [
      { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', command_name: '/plan' }, timeMs: ahead },
      { name: 'claude_code.user_prompt', attrs: { 'session.id': 's', command_name: '/review' } },
    ]);
    for (let i = 0; i < 2; i++) {
      const res = await json(org, 'logs', body);
      expect(res.json()).toEqual({ partialSuccess: { rejectedLogRecords: 1, errorMessage: expect.stringContaining('more than 5 minutes in the future') } });
    }
    expect(await day(org, 'activity')).toMatchObject({ user_messages: 1 });
    expect(await day(org, 'tools')).toMatchObject({ slash_commands_invocations: 1 });
    const slashes = await t.db.query<{ name: string }>(`SELECT name FROM analytics_day_counter WHERE org_id = $1 AND kind = 'slash_command'`, [org.orgId]);
    expect(slashes.map((r) => r.name)).toEqual(['/review']);
  });

  it('refuses with clear errors and stores nothing: undecodable protobuf, not JSON, another content type, a gzip bomb, a body over the limit, NaN and negative counters', async () => {
    const org = await t.createOrg('refusals');
    const garbage = await send(org, 'logs', Buffer.from([0xff, 0xff, 0xff, 0x0f]), { 'content-type': 'application/x-protobuf' });
    expect(garbage.statusCode).toBe(400);
    expect(decodeToPlain(messages.status, garbage.rawPayload)).toMatchObject({
      code: 3,
      message: expect.stringContaining('not a protobuf ExportLogsServiceRequest'),
    });
    const notJson = await send(org, 'logs', '{"resourceLogs": [', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ status: 400, code: 3, detail: 'The body is not JSON.', requestId: expect.any(String) });
    const text = await send(org, 'logs', 'x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({
      detail: 'Content-Type text/plain is not accepted here; send application/x-protobuf or application/json.',
      metadata: { accepts: ['application/x-protobuf', 'application/json'] },
    });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const inflated = await send(org, 'metrics', bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(inflated.statusCode).toBe(413);
    expect(inflated.json()).toMatchObject({ detail: expect.stringContaining('inflates past') });
    const huge = await send(org, 'metrics', Buffer.alloc(21 * 1024 * 1024, 0x20), { 'content-type': 'application/json' });
    expect(huge.statusCode).toBe(413);
    const nan = await send(
      org,
      'metrics',
      JSON.stringify(metrics(claude, [sum('claude_code.commit.count', [{ attrs: {}, value: 1 }])])).replace('"asDouble":1', '"asDouble":"NaN"'),
      { 'content-type': 'application/json' },
    );
    expect(nan.json()).toEqual({ partialSuccess: { rejectedDataPoints: 1, errorMessage: expect.stringContaining('not a finite number') } });
    const negative = await json(org, 'metrics', metrics(claude, [sum('claude_code.commit.count', [{ attrs: {}, value: -1 }])]));
    expect(negative.json()).toMatchObject({ partialSuccess: { rejectedDataPoints: 1 } });
    const beforeEpoch = JSON.stringify(tokensOf(5, { temporality: 2 })).replace(/"startTimeUnixNano":"\d+"/, '"startTimeUnixNano":"-1"');
    expect(beforeEpoch).toContain('"startTimeUnixNano":"-1"');
    const negativeTime = await send(org, 'metrics', beforeEpoch, { 'content-type': 'application/json' });
    expect(negativeTime.json()).toEqual({
      partialSuccess: { rejectedDataPoints: 1, errorMessage: expect.stringContaining('time is not an unsigned 64-bit number') },
    });
    // OTLP stores no events: it records the keys it counted (otlp_seen) and the rollups.
    for (const table of [
      'otlp_seen',
      'otlp_seen_groups',
      'otlp_streams',
      'otlp_stream_sets',
      'analytics_user_day',
      'analytics_user_day_model',
      'analytics_day_counter',
      'telemetry_events',
    ]) {
      const stored = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [org.orgId]);
      expect(stored[0]?.n, table).toBe(0);
    }
  });

  it('token sums past what the service keeps exactly: a 503 (never a 500), nothing of the export counted, and the service keeps serving', async () => {
    const org = await t.createOrg('huge-sums');
    const kinds = ['input', 'output', 'cacheRead', 'cacheCreation'];
    const points = Array.from({ length: 4000 }, (_, i) => ({
      attrs: { 'session.id': `s${i}`, type: kinds[i % 4]!, model: 'gpt-5' },
      value: 1_000_000_000_000,
    }));
    const res = await json(org, 'metrics', metrics(claude, [sum('claude_code.token.usage', points)]));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    for (const table of ['otlp_seen', 'otlp_seen_groups', 'analytics_user_day', 'analytics_user_day_model']) {
      const stored = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [org.orgId]);
      expect(stored[0]?.n, table).toBe(0);
    }
    expect((await json(org, 'metrics', tokensOf(700))).statusCode).toBe(200);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 700 });
  });

  it('needs a credential like every API route', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/metrics', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, code: 16 });
  });
});
