import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToPlain, encode, messages } from '../../src/otlp/proto.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { kv, metrics, ns, sum, YESTERDAY_MS } from './otlp-json.js';
import { yesterdayRow } from './reports.js';

/**
 * Records shaped as the agent clients were measured to send them (docs/otlp.md, "What each
 * client sends"): Codex 0.169's event names, Gemini CLI's tokens sent twice, Droid's unknown email.
 */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(async () => {
  await t?.close();
});

/** A Codex log record: the event-name field holds a code location, the name is in the event.name attribute. */
const codexRecord = (name: string, attrs: Record<string, unknown>, timeMs = YESTERDAY_MS) => ({
  timeUnixNano: ns(timeMs),
  eventName: 'event otel/src/events/session_telemetry.rs:703',
  attributes: kv({ 'event.name': name, 'conversation.id': 'conv-9', originator: 'codex_exec', 'event.timestamp': new Date(timeMs).toISOString(), ...attrs }),
});
const codexLogs = (records: unknown[]) => ({
  resourceLogs: [{ resource: { attributes: kv({ 'service.name': 'codex_exec' }) }, scopeLogs: [{ scope: { name: 'codex_otel' }, logRecords: records }] }],
});

/** One response as Codex logs it: response.completed twice, the first without token counts. */
const codexResponse = [
  codexRecord('codex.conversation_starts', { approval_policy: 'never', model: 'gpt-5-codex' }),
  codexRecord('codex.user_prompt', { prompt: 'SECRET' }),
  codexRecord('codex.sse_event', { 'event.kind': 'response.completed', model: 'gpt-5-codex' }, YESTERDAY_MS + 1),
  codexRecord(
    'codex.sse_event',
    { 'event.kind': 'response.completed', model: 'gpt-5-codex', input_token_count: 900, cached_token_count: 400, output_token_count: 30 },
    YESTERDAY_MS + 2,
  ),
];

const send = (org: Org, signal: 'logs' | 'metrics', body: Record<string, unknown>, protobuf = false) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/${signal}`,
    headers: { authorization: `Bearer ${org.ownerKey}`, 'content-type': protobuf ? 'application/x-protobuf' : 'application/json' },
    payload: protobuf ? encode(signal === 'logs' ? messages.logsRequest : messages.metricsRequest, body) : JSON.stringify(body),
  });

describe('Codex 0.169', () => {
  for (const protobuf of [false, true]) {
    it(`its records are read by their event.name attribute, and a response's tokens count once (${protobuf ? 'protobuf' : 'JSON'})`, async () => {
      const org = await t.createOrg(`codex-names-${protobuf}`);
      const res = await send(org, 'logs', codexLogs(codexResponse), protobuf);
      expect(res.statusCode).toBe(200);
      const answer = protobuf ? decodeToPlain(messages.logsResponse, res.rawPayload) : res.json();
      expect(answer).toEqual({});
      expect(await yesterdayRow(t, org, 'tokens')).toMatchObject({ input_tokens: 500, cache_read_tokens: 400, output_tokens: 30 });
      expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ sessions: 1, user_messages: 1 });
    });
  }

  it('a record of a known client under a name orgctl does not know is rejected with the reason, not dropped silently', async () => {
    const org = await t.createOrg('codex-unknown-name');
    const nameless = { timeUnixNano: ns(YESTERDAY_MS), eventName: 'event otel/src/events/other.rs:12', attributes: kv({ 'conversation.id': 'c' }) };
    const res = await send(org, 'logs', codexLogs([nameless, codexRecord('codex.user_prompt', {})]));
    expect(res.json()).toEqual({
      partialSuccess: {
        rejectedLogRecords: 1,
        errorMessage: expect.stringContaining('a codex log record whose event name orgctl does not know ("event otel/src/events/other.rs:12")'),
      },
    });
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: 1 });
  });

  it('a line of its own log (a code location, a text body, no event.name) is no event: neither rejected nor counted', async () => {
    const org = await t.createOrg('codex-log-line');
    const line = {
      timeUnixNano: '0',
      observedTimeUnixNano: ns(YESTERDAY_MS),
      severityNumber: 5,
      severityText: 'DEBUG',
      body: { stringValue: 'flushing OTEL metrics' },
      eventName: 'event otel/src/metrics/client.rs:324',
    };
    const res = await send(org, 'logs', codexLogs([line, codexRecord('codex.user_prompt', {})]));
    expect(res.json()).toEqual({});
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: 1 });
  });
});

describe('Gemini CLI', () => {
  it('tokens count once: gemini_cli.token.usage, not gen_ai.client.token.usage again; cached tokens inside input are not added as cache reads', async () => {
    const org = await t.createOrg('gemini-once');
    const model = { model: 'gemini-2.5-pro' };
    const res = await send(
      org,
      'metrics',
      metrics({ 'service.name': 'gemini-cli' }, [
        sum('gemini_cli.token.usage', [
          { attrs: { ...model, type: 'input' }, value: 1000 },
          { attrs: { ...model, type: 'cache' }, value: 600 },
          { attrs: { ...model, type: 'output' }, value: 80 },
          { attrs: { ...model, type: 'thought' }, value: 20 },
        ]),
        sum('gen_ai.client.token.usage', [
          { attrs: { 'gen_ai.token.type': 'input', 'gen_ai.request.model': 'gemini-2.5-pro' }, value: 1000 },
          { attrs: { 'gen_ai.token.type': 'output', 'gen_ai.request.model': 'gemini-2.5-pro' }, value: 100 },
        ]),
      ]),
    );
    expect(res.json()).toEqual({});
    expect(await yesterdayRow(t, org, 'tokens')).toMatchObject({ input_tokens: 1000, cache_read_tokens: 0, output_tokens: 100 });
  });

  it('its gemini_cli.user_prompt is a user message; its gen_ai.* log events are known and unused, not rejected', async () => {
    const org = await t.createOrg('gemini-logs');
    const record = (name: string, attrs: Record<string, unknown> = {}) => ({
      timeUnixNano: ns(YESTERDAY_MS),
      body: { stringValue: 'User prompt. Length: 24.' },
      attributes: kv({ 'event.name': name, 'session.id': 'gemini-s1', ...attrs }),
    });
    const body = {
      resourceLogs: [
        {
          resource: { attributes: kv({ 'service.name': 'gemini-cli' }) },
          scopeLogs: [
            {
              scope: { name: 'gemini-cli' },
              logRecords: [
                record('gemini_cli.user_prompt', { prompt_length: 24 }),
                record('gen_ai.client.inference.operation.details', { 'gen_ai.request.model': 'gemini-3.8-flash', 'gen_ai.usage.input_tokens': 130 }),
                record('gemini_cli.api_response', { model: 'gemini-3.8-flash', input_token_count: 130, output_token_count: 20 }),
              ],
            },
          ],
        },
      ],
    };
    const res = await send(org, 'logs', body);
    expect(res.json()).toEqual({});
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ user_messages: 1, messages: 1 });
    // Its tokens come from its metric alone.
    expect(await yesterdayRow(t, org, 'tokens')).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });
});

describe('Droid', () => {
  it('user.email="unknown" names nobody: an organization-wide key keeps the record (its own), neither rejected nor given to someone else', async () => {
    const org = await t.createOrg('droid-unknown');
    const res = await send(
      org,
      'metrics',
      metrics({ 'service.name': 'droid' }, [sum('droid.session.count', [{ attrs: { 'user.email': 'unknown', 'session.id': 'd-1' }, value: 1 }])]),
    );
    expect(res.json()).toEqual({});
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ sessions: 1, daily_active_users: 1 });
  });

  it('airgapped, as Droid 0.225 sends it (service.name cli, user.id="airgapped-user"): the placeholder names nobody either', async () => {
    const org = await t.createOrg('droid-airgapped');
    const attrs = { 'user.id': 'airgapped-user', 'user.email': 'unknown', 'organization.id': 'airgapped-org', 'session.id': 'd-2' };
    const res = await send(
      org,
      'metrics',
      metrics({ 'service.name': 'cli' }, [
        sum('droid.session.count', [{ attrs, value: 1 }]),
        sum('droid.tool.invocations', [{ attrs: { ...attrs, 'tool.name': 'Execute' }, value: 1 }]),
      ]),
    );
    expect(res.json()).toEqual({});
    expect(await yesterdayRow(t, org, 'activity')).toMatchObject({ sessions: 1, daily_active_users: 1 });
    expect(await yesterdayRow(t, org, 'tools')).toMatchObject({ tool_calls: 1 });
  });
});
