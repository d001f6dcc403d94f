import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../src/core/db/migrate.js';
import type { Increment } from '../../src/analytics/rollups.js';
import type { TelemetryEvent } from '../../src/events/event.js';
import { streamKey } from '../../src/otlp/mappings/index.js';
import { originId } from '../../src/otlp/mappings/native.js';
import { metricPoints, nsToMs } from '../../src/otlp/records.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { logs, metrics, sum, YESTERDAY_MS } from './otlp-json.js';
import { exportJson, yesterdayRow } from './reports.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

const post = (org: Org, signal: string, body: unknown) => exportJson(t, org, signal, body);
const day = (org: Org, report: string) => yesterdayRow(t, org, report);
const claude = { 'service.name': 'claude-code' };
const session = { 'session.id': 'up' };

describe('upgrade from event rows to otlp_seen (migration 0051) and to groups (0052)', () => {
  it('an export stored as events before the upgrade counts once when it is retried after it', async () => {
    const org = await t.createOrg('upgrade');
    const logBody = logs(claude, [
      { name: 'claude_code.user_prompt', attrs: { ...session, 'event.sequence': 1, command_name: '/review' } },
      { name: 'claude_code.tool_result', attrs: { ...session, 'event.sequence': 2, tool_name: 'Edit' } },
    ]);
    const metricBody = metrics(claude, [sum('claude_code.commit.count', [{ attrs: session, value: 3 }])]);

    // The first send, recording the events as the previous release stored them (same ids: test/otlp/ids.test.ts).
    // The commit point now reaches the rollups as one increment of 3; the previous release made
    // it 3 events, `<the point's id>#0` to `#2`, and stored them as rows.
    const recorded: TelemetryEvent[] = [];
    const increments: Increment[] = [];
    const original = t.services.analytics.recordBatch.bind(t.services.analytics);
    const capture = vi.spyOn(t.services.analytics, 'recordBatch').mockImplementation((orgId, events, counted) => {
      recorded.push(...events);
      increments.push(...(counted ?? []));
      return original(orgId, events, counted);
    });
    expect((await post(org, 'logs', logBody)).statusCode).toBe(200);
    expect((await post(org, 'metrics', metricBody)).statusCode).toBe(200);
    capture.mockRestore();
    expect(increments).toMatchObject([{ counter: 'git_commits', amount: 3 }]);
    const point = metricPoints(metricBody).points[0]!;
    const pointId = originId('point', point, point.scope, point.metric, point.attrs, point.startNs.toString(), point.timeNs.toString());
    for (const c of increments) {
      for (let i = 0; i < c.amount; i++) {
        recorded.push({
          id: `${pointId}#${i}`,
          type: 'git_commit',
          ms: nsToMs(point.timeNs),
          day: c.day,
          sessionId: 'up',
          client: c.client,
          userId: c.userId,
          attrs: {},
        });
      }
    }
    expect(recorded.map((e) => e.id.replace(/^otlp:[A-Za-z0-9_-]{32}/, 'KEY')).sort()).toEqual(['KEY', 'KEY', 'KEY#0', 'KEY#1', 'KEY#2', 'KEY#slash']);
    const before = { activity: await day(org, 'activity'), tools: await day(org, 'tools'), productivity: await day(org, 'productivity') };
    expect(before.activity).toMatchObject({ user_messages: 1 });
    expect(before.tools).toMatchObject({ tool_calls: 1, slash_commands_invocations: 1 });
    expect(before.productivity).toMatchObject({ git_commits: 3 });

    // The database as the previous release left it: the events as rows, no otlp_seen.
    for (const e of recorded) {
      await t.db.query(
        `INSERT INTO telemetry_events (org_id, event_id, user_id, type, occurred_at, session_id, client, attrs)
         VALUES ($1, $2, $3, $4, timestamptz 'epoch' + $5 * interval '1 millisecond', $6, $7, $8::text::jsonb)`,
        [org.orgId, e.id, e.userId, e.type, e.ms, e.sessionId, e.client, JSON.stringify(e.attrs)],
      );
    }
    await t.db.exec(`DROP TABLE otlp_seen, otlp_seen_groups, otlp_seen_groups_before; DELETE FROM schema_migrations WHERE version IN (51, 52)`);
    expect(await migrate(t.db)).toEqual(['0051_otlp_seen', '0052_otlp_seen_groups']);
    expect(Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM otlp_seen WHERE org_id = $1`, [org.orgId]))[0]!.n)).toBe(3);
    // The keys stay in otlp_seen (0052 cannot tell grouped records' from the others); the organization is noted for lookups there.
    expect(await t.db.query(`SELECT count(*)::int AS n FROM otlp_seen_groups_before WHERE org_id = $1`, [org.orgId])).toEqual([{ n: 1 }]);

    // The new release starts on the upgraded database: the retries count nothing.
    const upgraded = await t.otherProcess();
    const postUpgraded = (signal: string, body: unknown) =>
      upgraded.inject({
        method: 'POST',
        url: `/v1/${signal}`,
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    try {
      expect((await postUpgraded('logs', logBody)).statusCode).toBe(200);
      expect((await postUpgraded('metrics', metricBody)).statusCode).toBe(200);
      expect(await day(org, 'activity')).toEqual(before.activity);
      expect(await day(org, 'tools')).toEqual(before.tools);
      expect(await day(org, 'productivity')).toEqual(before.productivity);

      // New records still count, a new point of the same group (collection) too.
      await postUpgraded('logs', logs(claude, [{ name: 'claude_code.user_prompt', attrs: { ...session, 'event.sequence': 3 } }]));
      expect(await day(org, 'activity')).toMatchObject({ user_messages: 2 });
      await postUpgraded(
        'metrics',
        metrics(claude, [
          sum('claude_code.commit.count', [
            { attrs: session, value: 3 },
            { attrs: { 'session.id': 'other' }, value: 2 },
          ]),
        ]),
      );
      expect(await day(org, 'productivity')).toMatchObject({ git_commits: 3 + 2 });
    } finally {
      await upgraded.close();
    }
  });
});

describe('upgrade of cumulative streams to sets (migration 0055)', () => {
  it('a stream counted before the upgrade goes on from the state its own row kept: a retry counts nothing, its growth counts', async () => {
    const org = await t.createOrg('upgrade-streams');
    const start = YESTERDAY_MS - 3_600_000;
    const tokens = (value: number, minute: number) =>
      metrics(claude, [
        sum(
          'claude_code.token.usage',
          [{ attrs: { ...session, type: 'input', model: 'claude-sonnet-4-5' }, value, startMs: start, timeMs: start + minute * 60_000 }],
          { temporality: 2 },
        ),
      ]);
    expect((await post(org, 'metrics', tokens(100, 1))).statusCode).toBe(200);
    expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 100 });

    // The database as the previous release left it: the stream's state in a row of its own, no sets.
    const counted = metricPoints(tokens(100, 1)).points[0]!;
    await t.db.exec(`DROP TABLE otlp_stream_sets; DELETE FROM schema_migrations WHERE version = 55`);
    await t.db.query(`INSERT INTO otlp_streams (org_id, stream_key, start_ns, last_ns, last_value) VALUES ($1, $2, $3, $4, $5)`, [
      org.orgId,
      streamKey(counted),
      String(counted.startNs),
      String(counted.timeNs),
      100,
    ]);
    expect(await migrate(t.db)).toEqual(['0055_otlp_stream_sets']);

    const upgraded = await t.otherProcess();
    const postUpgraded = (body: unknown) =>
      upgraded.inject({
        method: 'POST',
        url: '/v1/metrics',
        headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    try {
      expect((await postUpgraded(tokens(100, 1))).statusCode).toBe(200);
      expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 100 });
      expect((await postUpgraded(tokens(160, 2))).statusCode).toBe(200);
      expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 160 });
      // The stream is in its set now.
      expect((await postUpgraded(tokens(160, 2))).statusCode).toBe(200);
      expect(await t.db.query(`SELECT length(states) AS n FROM otlp_stream_sets WHERE org_id = $1`, [org.orgId])).toEqual([{ n: 48 }]);
      expect(await day(org, 'tokens')).toMatchObject({ input_tokens: 160 });
    } finally {
      await upgraded.close();
    }
  });
});
