/**
 * OTLP ingestion benchmark, one engine per run: log records/s and metric data points/s through
 * POST /v1/logs and /v1/metrics (protobuf, gzip, batches of the exporters' usual size: 512 log
 * records, 500 data points; points with delta temporality, as Claude Code sends them, and with
 * cumulative, the OpenTelemetry SDK's default), against native ingestion (POST
 * /api/v1/telemetry/events, batches of 1000) of the same activity, measured in the same run over
 * real HTTP on loopback (keep-alive, --concurrency requests in flight) from a sender on its own
 * thread (batch-sender.ts), as an exporter is another program. The bodies are built and
 * compressed before the clock starts. Each OTLP record becomes one native event, so the ratio
 * compares like with like.
 * `--only PHASE` measures one phase (native, logs, delta or cumulative) after every warm-up: to
 * compare two builds one phase at a time, alternating, without the machine's drift between the
 * phases of one run (its rows then have no ratio, unless the phase is native).
 * `--warm-up N` (default 600,000) is how many records of each path are sent before the figures:
 * V8 compiles the code that runs once per export (the HTTP server's, the transaction's, an
 * export's own) only after some thousands of exports, and with 10,000 records a path (20 exports)
 * a phase spent about a tenth of the machine's CPU compiling (bench/RESULTS.md, otlp).
 * `--cpu` adds, under each row, the CPU each item took (thread-times.ts): the service's main
 * thread, with the share of the phase it waited for a core, the whole process and (its server on
 * this machine) PostgreSQL.
 * Usage: npm run bench:otlp -- [--engine pglite|postgres] [--postgres URL] [--records 200000] [--concurrency 4] [--warm-up 600000] [--only PHASE] [--cpu]
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DAY_MS } from '../src/core/days.js';
import { migrate } from '../src/core/db/migrate.js';
import { OperatorIdentity } from '../src/core/identity/operator.js';
import { IdentityService } from '../src/core/identity/service.js';
import { encode, messages } from '../src/otlp/proto.js';
import { openBenchDb } from './analytics-setup.js';
import { BatchSender, type Batch, type Sent } from './batch-sender.js';
import { describeThreadTimes, threadTimes } from './thread-times.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    records: { type: 'string', default: '200000' },
    concurrency: { type: 'string', default: '4' },
    'warm-up': { type: 'string', default: '600000' },
    only: { type: 'string' },
    cpu: { type: 'boolean', default: false },
  },
});
const PHASES = ['native', 'logs', 'delta', 'cumulative'] as const;
type Phase = (typeof PHASES)[number];
if (values.only !== undefined && !PHASES.includes(values.only as Phase)) {
  console.error(`--only must be one of ${PHASES.join(', ')}`);
  process.exit(2);
}
const measured = values.only === undefined ? PHASES : [values.only as Phase];
const engine = values.engine === 'postgres' ? 'postgres' : 'pglite';
const records = Number(values.records);
const concurrency = Number(values.concurrency);
const dayMs = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS / 2;
const USERS = 50;
/**
 * Records of each path sent before the figures, so that each path is measured compiled, as in a
 * service that has run for a while. The bodies of each path take a tag that starts their session
 * ids (and the native events' ids, the cumulative clients' instances), so that the warm-up's
 * records are others than the measured ones; the warm-up's delta points also have other times
 * (WARM_UP_EARLIER_MS before, more than a warm-up's exports span), so that they make other
 * collections.
 */
const WARM_UP = Number(values['warm-up']);
const WARM_UP_EARLIER_MS = 600_000;
const kv = (o: Record<string, string | number>) =>
  Object.entries(o).map(([key, v]) => ({ key, value: typeof v === 'string' ? { stringValue: v } : { intValue: v } }));
const ns = (ms: number) => (BigInt(ms) * 1_000_000n).toString();

/** Claude Code log events of one session: tool results and prompts, each with its own sequence. */
function logBodies(count: number, tag = ''): Batch[] {
  const out: Batch[] = [];
  for (let b = 0; b * 512 < count; b++) {
    const n = Math.min(512, count - b * 512);
    const logRecords = Array.from({ length: n }, (_, i) => {
      const seq = b * 512 + i;
      const name = seq % 4 === 0 ? 'user_prompt' : 'tool_result';
      return {
        timeUnixNano: ns(dayMs + seq),
        body: { stringValue: `claude_code.${name}` },
        attributes: kv({
          'event.name': name,
          'event.sequence': seq,
          'event.timestamp': new Date(dayMs + seq).toISOString(),
          'session.id': `${tag}log-${b % USERS}`,
          tool_name: ['Read', 'Edit', 'Bash', 'Grep'][seq % 4] as string,
        }),
      };
    });
    const body = {
      resourceLogs: [
        { resource: { attributes: kv({ 'service.name': 'claude-code' }) }, scopeLogs: [{ scope: { name: 'com.anthropic.claude_code.events' }, logRecords }] },
      ],
    };
    out.push({
      payload: gzipSync(encode(messages.logsRequest, body)),
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      items: n,
    });
  }
  return out;
}

/** Delta token points, one per (session, model, type), as Claude Code's exporter sends them. */
function metricBodies(count: number, tag = '', earlierMs = 0): Batch[] {
  const out: Batch[] = [];
  const types = ['input', 'output', 'cacheRead', 'cacheCreation'];
  const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];
  for (let b = 0; b * 500 < count; b++) {
    const n = Math.min(500, count - b * 500);
    const dataPoints = Array.from({ length: n }, (_, i) => ({
      attributes: kv({ 'session.id': `${tag}m-${b}-${Math.floor(i / 12)}`, model: models[i % 3] as string, type: types[Math.floor(i / 3) % 4] as string }),
      startTimeUnixNano: ns(dayMs - 60_000 - earlierMs),
      timeUnixNano: ns(dayMs + b - earlierMs),
      asDouble: 100 + (i % 50),
    }));
    const body = {
      resourceMetrics: [
        {
          resource: { attributes: kv({ 'service.name': 'claude-code' }) },
          scopeMetrics: [
            {
              scope: { name: 'com.anthropic.claude_code' },
              metrics: [{ name: 'claude_code.token.usage', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints } }],
            },
          ],
        },
      ],
    };
    out.push({
      payload: gzipSync(encode(messages.metricsRequest, body)),
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      items: n,
    });
  }
  return out;
}

/**
 * Cumulative token points: clients of 500 streams each (one per session, model and type), each
 * exporting every stream's running total once a minute for STEPS minutes. The exports go minute
 * by minute, client after client, so one client's exports follow each other, as an SDK's do.
 */
const STEPS = 8;
function cumulativeBodies(count: number, tag = ''): Batch[] {
  const out: Batch[] = [];
  const types = ['input', 'output', 'cacheRead', 'cacheCreation'];
  const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];
  const clients = Math.max(1, Math.ceil(count / (500 * STEPS)));
  const startMs = dayMs - 3_600_000;
  for (let step = 1; step <= STEPS; step++) {
    for (let c = 0; c < clients; c++) {
      const dataPoints = Array.from({ length: 500 }, (_, i) => ({
        attributes: kv({
          'session.id': `${tag}cumulative-${c}-${Math.floor(i / 12)}`,
          model: models[i % 3] as string,
          type: types[Math.floor(i / 3) % 4] as string,
        }),
        startTimeUnixNano: ns(startMs),
        timeUnixNano: ns(startMs + step * 60_000),
        asDouble: step * (100 + (i % 50)),
      }));
      const body = {
        resourceMetrics: [
          {
            resource: { attributes: kv({ 'service.name': 'claude-code', 'service.instance.id': `${tag}client-${c}` }) },
            scopeMetrics: [
              {
                scope: { name: 'com.anthropic.claude_code' },
                metrics: [{ name: 'claude_code.token.usage', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints } }],
              },
            ],
          },
        ],
      };
      out.push({
        payload: gzipSync(encode(messages.metricsRequest, body)),
        headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
        items: 500,
      });
    }
  }
  return out;
}

/** The same activity as native events: tool calls and messages, 1000 a batch. */
function nativeBodies(count: number, tag = ''): Batch[] {
  const out: Batch[] = [];
  for (let b = 0; b * 1000 < count; b++) {
    const n = Math.min(1000, count - b * 1000);
    const events = Array.from({ length: n }, (_, i) => {
      const seq = b * 1000 + i;
      const base = { id: `${tag}native-${seq}`, timestamp: dayMs + seq, sessionId: `${tag}native-${b % USERS}`, client: 'terminal-ui' };
      return seq % 4 === 0
        ? { ...base, type: 'message', role: 'user' }
        : { ...base, type: 'tool_call', tool: ['Read', 'Edit', 'Bash', 'Grep'][seq % 4], autonomyLevel: 'manual' };
    });
    out.push({ payload: Buffer.from(JSON.stringify({ events })), headers: { 'content-type': 'application/json' }, items: n });
  }
  return out;
}

const { db, cleanup } = await openBenchDb({ engine, postgres: values.postgres as string, events: records, keep: undefined });
try {
  await migrate(db);
  const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
  const org = await operator.createOrganization({ name: 'bench', ownerEmail: 'owner@bench.test' });
  const app = await buildApp(loadConfig({}, { logLevel: 'silent', rateLimits: false, overloadMaxEventLoopDelayMs: 0 }), { db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const sender = new BatchSender();
  const send = (path: string, batches: Batch[]) => sender.send({ base, path, authorization: `Bearer ${org.apiKey}`, concurrency, batches });
  const phases: Record<Phase, { label: string; path: string; unit: string; bodies: () => Batch[] }> = {
    native: { label: 'native events (baseline)', path: '/api/v1/telemetry/events', unit: 'events/s', bodies: () => nativeBodies(records) },
    logs: { label: 'OTLP logs', path: '/v1/logs', unit: 'log records/s', bodies: () => logBodies(records) },
    delta: { label: 'OTLP metrics, delta', path: '/v1/metrics', unit: 'data points/s', bodies: () => metricBodies(records) },
    cumulative: { label: 'OTLP metrics, cumulative', path: '/v1/metrics', unit: 'data points/s', bodies: () => cumulativeBodies(records) },
  };
  const bodies = new Map(measured.map((phase) => [phase, phases[phase].bodies()]));
  console.log(`OTLP ingestion on ${engine}: ${records} items each, protobuf+gzip, concurrency ${concurrency}, warm-up ${WARM_UP} a path`);
  // A warm-up of each path, outside the figures (WARM_UP).
  await send('/api/v1/telemetry/events', nativeBodies(WARM_UP, 'warm-'));
  await send('/v1/logs', logBodies(WARM_UP, 'warm-'));
  await send('/v1/metrics', metricBodies(WARM_UP, 'warm-', WARM_UP_EARLIER_MS));
  await send('/v1/metrics', cumulativeBodies(WARM_UP, 'warm-'));
  const results = new Map<Phase, Sent>();
  const cpu = new Map<Phase, string>();
  for (const phase of measured) {
    const batches = bodies.get(phase) as Batch[];
    const before = values.cpu ? threadTimes() : undefined;
    const sent = await send(phases[phase].path, batches);
    const after = before && threadTimes();
    results.set(phase, sent);
    if (before && after)
      cpu.set(
        phase,
        describeThreadTimes(
          before,
          after,
          batches.reduce((n, b) => n + b.items, 0),
          sent.seconds,
          engine === 'postgres',
        ),
      );
  }
  if (values.cpu && cpu.size === 0) console.log('(--cpu: this system has no /proc scheduler counts)');
  const native = results.get('native');
  for (const [phase, r] of results) {
    const { label, unit } = phases[phase];
    const ratio = native ? `   ratio to native ${(r.perSecond / native.perSecond).toFixed(2)}` : '';
    console.log(
      `${label.padEnd(34)} ${Math.round(r.perSecond).toLocaleString('en-US').padStart(10)} ${unit.padEnd(18)} ${r.seconds.toFixed(1).padStart(6)} s${ratio}`,
    );
    const times = cpu.get(phase);
    if (times) console.log(times);
  }
  await sender.close();
  await app.close();
} finally {
  await cleanup();
}
