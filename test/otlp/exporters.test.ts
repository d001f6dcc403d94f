import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { logs, YESTERDAY, YESTERDAY_MS } from './otlp-json.js';
import { onCleanup } from '../helpers/cleanup.js';

/**
 * The OpenTelemetry JS SDK and exporters (the Node 20 line, pinned) sending to a real `orgctl
 * serve`. The SDK stamps points with the clock (Date.now, performance.now); the analytics
 * endpoints report closed days, so this process's clock runs from yesterday noon while it records.
 */
const realNow = performance.now.bind(performance);
const realDateNow = Date.now;
const shift = YESTERDAY_MS - realDateNow();
performance.now = () => realNow() + shift;
Date.now = () => realDateNow() + shift;

let server: Server;
let ownerKey: string;
const users = ['json-delta', 'json-cumulative', 'proto-gzip', 'logs-json', 'logs-proto'].map((u) => `${u}@acme.test`);
const keys = new Map<string, string>();
const keyOf = (email: string) => keys.get(email) as string;

beforeAll(async () => {
  // One key per developer, in their agent's OTLP headers: the recommended setup.
  const installed = await orgInstallation(users.map((email) => ({ email })));
  const env = installed.env;
  ownerKey = installed.ownerKey;
  for (const email of users) keys.set(email, installed.keys[email]!);
  // At the most verbose level, so that the test of what is never logged sees everything that is.
  server = await startServer({ ...env, LOG_LEVEL: 'trace' });
  onCleanup(() => server.stop());
}, 120_000);
afterAll(async () => {
  performance.now = realNow;
  Date.now = realDateNow;
});

type Row = Record<string, unknown>;
const usersRow = async (email: string) => {
  const res = await fetch(`${server.url}/api/v1/analytics/users?startDate=${YESTERDAY}&endDate=${YESTERDAY}&limit=100`, {
    headers: { authorization: `Bearer ${ownerKey}` },
  });
  return ((await res.json()) as { data: Row[] }).data.find((r) => r.user_email === email);
};
const headers = (key: string) => ({ Authorization: `Bearer ${key}` });

async function recordMetrics(exporter: PushMetricExporter, record: (p: MeterProvider) => void, rounds = 1): Promise<void> {
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ resource: resourceFromAttributes({ 'service.name': 'claude-code' }), readers: [reader] });
  for (let i = 0; i < rounds; i++) {
    record(provider);
    await provider.forceFlush();
  }
  await provider.shutdown();
}

async function emitLogs(exporter: JsonLogExporter | ProtoLogExporter, names: string[], session: string, content: Record<string, string> = {}): Promise<void> {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'claude-code' }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  const logger = provider.getLogger('com.anthropic.claude_code.events');
  names.forEach((name, i) =>
    logger.emit({
      body: `claude_code.${name}`,
      timestamp: new Date(YESTERDAY_MS),
      attributes: {
        'event.name': name,
        'event.sequence': i,
        'event.timestamp': new Date(YESTERDAY_MS + i).toISOString(),
        'session.id': session,
        ...(name === 'tool_result' ? { tool_name: 'Grep' } : {}),
        ...content,
      },
    }),
  );
  await provider.forceFlush();
  await provider.shutdown();
}

describe('real OpenTelemetry exporters to orgctl serve', () => {
  it('metrics in JSON with delta temporality', async () => {
    const key = keyOf(users[0]!);
    await recordMetrics(
      new JsonMetricExporter({ url: `${server.url}/v1/metrics`, headers: headers(key), temporalityPreference: AggregationTemporalityPreference.DELTA }),
      (p) => {
        const tokens = p.getMeter('com.anthropic.claude_code').createCounter('claude_code.token.usage');
        tokens.add(1200, { type: 'input', model: 'claude-sonnet-4-5', 'session.id': 's1' });
        tokens.add(300, { type: 'output', model: 'claude-sonnet-4-5', 'session.id': 's1' });
      },
      2,
    );
    // Two flushes of delta points: each adds its own.
    expect(await usersRow(users[0]!)).toMatchObject({ primary_model: 'claude-sonnet-4-5' });
    const res = await fetch(`${server.url}/api/v1/analytics/tokens?startDate=${YESTERDAY}&endDate=${YESTERDAY}`, {
      headers: { authorization: `Bearer ${ownerKey}` },
    });
    const byUser = ((await res.json()) as { data: { by_user: { user_email: string; by_model: Row[] }[] }[] }).data[0]!.by_user.find(
      (u) => u.user_email === users[0],
    );
    expect(byUser!.by_model[0]).toMatchObject({ input_tokens: 2400, output_tokens: 600 });
  });

  it('metrics in JSON with cumulative temporality (the SDK default): three flushes count the growth once', async () => {
    const key = keyOf(users[1]!);
    let round = 0;
    await recordMetrics(
      new JsonMetricExporter({ url: `${server.url}/v1/metrics`, headers: headers(key) }),
      (p) => {
        round += 1;
        p.getMeter('com.anthropic.claude_code').createCounter('claude_code.commit.count').add(round, { 'session.id': 's2' });
      },
      3,
    );
    expect(await usersRow(users[1]!)).toMatchObject({ git_commits: 1 + 2 + 3 });
  });

  it('metrics in protobuf, gzip-compressed', async () => {
    const key = keyOf(users[2]!);
    await recordMetrics(
      new ProtoMetricExporter({
        url: `${server.url}/v1/metrics`,
        headers: headers(key),
        compression: 'gzip' as never,
        temporalityPreference: AggregationTemporalityPreference.DELTA,
      }),
      (p) => {
        p.getMeter('com.anthropic.claude_code').createCounter('claude_code.pull_request.count').add(2, { 'session.id': 's3' });
        p.getMeter('com.anthropic.claude_code').createCounter('claude_code.session.count').add(1, { 'session.id': 's3' });
      },
    );
    expect(await usersRow(users[2]!)).toMatchObject({ git_prs_created: 2, sessions: 1 });
  });

  it('logs in JSON and in protobuf', async () => {
    await emitLogs(
      new JsonLogExporter({ url: `${server.url}/v1/logs`, headers: headers(keyOf(users[3]!)) }),
      ['user_prompt', 'assistant_response', 'tool_result'],
      'l1',
    );
    await emitLogs(
      new ProtoLogExporter({ url: `${server.url}/v1/logs`, headers: headers(keyOf(users[4]!)) }),
      ['user_prompt', 'tool_result', 'tool_result'],
      'l2',
    );
    expect(await usersRow(users[3]!)).toMatchObject({ messages: 2, user_messages: 1, tool_calls: 1 });
    expect(await usersRow(users[4]!)).toMatchObject({ messages: 1, user_messages: 1, tool_calls: 2 });
  });

  it('never logs content, even at LOG_LEVEL=trace: not from stored records, refused ones or bodies it cannot read', async () => {
    const secret = 'SECRET-CONTENT-7f3a';
    const before = server.output().length;
    await emitLogs(new ProtoLogExporter({ url: `${server.url}/v1/logs`, headers: headers(keyOf(users[4]!)) }), ['user_prompt', 'tool_result'], 'l3', {
      prompt: secret,
      tool_parameters: JSON.stringify({ mcp_server_name: 'github', body: secret }),
    });
    // A record attributed to an unknown email (refused into partialSuccess) and a body that is not JSON, both carrying content.
    const refused = await fetch(`${server.url}/v1/logs`, {
      method: 'POST',
      headers: { ...headers(ownerKey), 'content-type': 'application/json' },
      body: JSON.stringify(
        logs({ 'service.name': 'claude-code' }, [
          { name: 'claude_code.user_prompt', attrs: { 'user.email': 'nobody@acme.test', 'session.id': 'l4', prompt: secret } },
        ]),
      ),
    });
    expect(refused.status).toBe(200);
    expect(JSON.stringify(await refused.json())).toMatch(/nobody@acme\.test/);
    const broken = await fetch(`${server.url}/v1/logs`, {
      method: 'POST',
      headers: { ...headers(ownerKey), 'content-type': 'application/json' },
      body: `{"resourceLogs": [${secret}`,
    });
    expect(broken.status).toBe(400);
    // The requests were logged (so the level let everything through), their content was not. A
    // log line reaches the pipe after its response, so it is awaited (bounded) rather than assumed.
    const logged = await vi.waitFor(
      () => {
        const out = server.output().slice(before);
        expect(out.match(/\/v1\/logs/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
        return out;
      },
      { timeout: 5000 },
    );
    expect(logged).not.toContain(secret);
  });
  it("a known client's log record under an event name orgctl does not know is rejected, and the service warns once for that client, not once per export", async () => {
    const before = server.output().length;
    const unknown = (n: number) => ({
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'codex_exec' } }] },
          scopeLogs: [
            {
              scope: { name: 'codex_otel' },
              logRecords: [{ timeUnixNano: `${BigInt(YESTERDAY_MS + n) * 1_000_000n}`, eventName: `event otel/src/x.rs:${n}` }],
            },
          ],
        },
      ],
    });
    for (const n of [1, 2]) {
      const res = await fetch(`${server.url}/v1/logs`, {
        method: 'POST',
        headers: { ...headers(ownerKey), 'content-type': 'application/json' },
        body: JSON.stringify(unknown(n)),
      });
      expect(await res.json()).toMatchObject({ partialSuccess: { rejectedLogRecords: 1 } });
    }
    const warnings =
      server
        .output()
        .slice(before)
        .match(/codex log records that orgctl does not know how to read/g) ?? [];
    expect(warnings).toHaveLength(1);
  });
});
