/**
 * Alerts and webhooks benchmark: telemetry ingestion throughput with usage alerts and webhooks on
 * against off, in the same run, on the same engine. Each round ingests the same batches into a
 * fresh database of its own:
 *   - off: no limit, budget or endpoint (every batch still asks which scopes it counts against);
 *   - on: a global limit per person, a budget per team (each person in one of --teams teams), an
 *     organization budget, all crossed at 50, 80 and 100 % during the round, and a webhook endpoint
 *     taking every event, served by a local receiver while the delivery worker runs.
 * Batches of --batch model requests of one person each (as a client sends its own), each person
 * in turn, go through POST /api/v1/telemetry/events (inject: parsing,
 * authentication, validation, one transaction per batch), --concurrency at a time. Rounds
 * alternate off, on, off, on… so a drift of the machine weighs on both.
 * Usage: npm run bench:alerts -- [--engine pglite|postgres] [--postgres URL] [--events 100000]
 *          [--batch 100] [--users 40] [--teams 4] [--concurrency 4] [--rounds 2] [--no-organization-budget]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/core/db/migrate.js';
import { buildServices } from '../src/services.js';
import { openBenchDb } from './analytics-setup.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    events: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '100' },
    users: { type: 'string', default: '40' },
    teams: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    // Without it every batch also evaluates the organization's scope (its sum over the month).
    'no-organization-budget': { type: 'boolean', default: false },
  },
});
const engine = values.engine === 'postgres' ? 'postgres' : 'pglite';
const events = Number(values.events);
const batch = Number(values.batch);
const userCount = Number(values.users);
const teamCount = Number(values.teams);
const concurrency = Number(values.concurrency);
/** Input tokens of a model request: claude-sonnet-4-5 counts 1.2 credits each, so a request is 12,000 credits. */
const TOKENS = 10_000;
const CREDITS_PER_EVENT = 12_000;

async function receiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received: () => received, close: () => new Promise((r) => server.close(r)) };
}

async function round(on: boolean, hook: { url: string }): Promise<{ perSecond: number; alerts: number; deliveries: number }> {
  const { db, cleanup } = await openBenchDb({ engine, postgres: values.postgres as string, events, keep: undefined });
  try {
    await migrate(db);
    const config = loadConfig({}, { logLevel: 'silent', rateLimits: false, overloadMaxEventLoopDelayMs: 0, ciAllowPrivateNetwork: true, webhooksTickMs: 50 });
    const services = buildServices(config, { db });
    const app = await buildApp(config, { services }, ['api']);
    await app.ready();
    const org = await services.operatorIdentity.createOrganization({ name: 'bench', ownerEmail: 'owner@bench.test' });
    const users: string[] = [];
    for (let i = 0; i < userCount; i++)
      users.push((await services.operatorIdentity.addUser({ orgId: org.orgId, email: `u${i}@bench.test`, role: 'member' })).id);
    const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as { id: string };
    };
    const total = events * CREDITS_PER_EVENT;
    if (on) {
      // Each budget is reached at about 80 % of the round, so every threshold is crossed in it.
      await call('PUT', '/api/v0/organization/usage/limits/global', { limit: Math.max(1_000_000, Math.round((total / userCount) * 0.8)) });
      for (let t = 0; t < teamCount; t++) {
        const members = users.filter((_, i) => i % teamCount === t);
        const team = await call('POST', '/api/v0/organization/teams', { name: `team-${t}`, userIds: members });
        await call('PUT', `/api/v0/organization/usage/limits/teams/${team.id}`, { limit: Math.max(1_000_000, Math.round((total / teamCount) * 0.8)) });
      }
      await call('PUT', '/api/v0/organization/alerts/settings', {
        personThresholds: [50, 80, 100],
        teamThresholds: [50, 80, 100],
        organizationThresholds: [50, 80, 100],
        organizationBudget: values['no-organization-budget'] ? null : Math.round(total * 0.8),
      });
      await call('POST', '/api/v0/organization/webhooks', { url: hook.url, eventTypes: ['usage.threshold_crossed', 'member.added'] });
      services.deliveries.start();
    }
    let next = 0;
    const now = Date.now() - 60_000;
    const lane = async () => {
      while (next < events) {
        const from = next;
        next += batch;
        const body = {
          events: Array.from({ length: Math.min(batch, events - from) }, (_, k) => ({
            id: `e${from + k}`,
            type: 'model_request',
            timestamp: now,
            sessionId: 's',
            client: 'terminal-ui',
            userId: users[(from / batch) % users.length],
            model: 'claude-sonnet-4-5',
            tier: 'standard',
            inputTokens: TOKENS,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
          })),
        };
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/telemetry/events',
          headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        if (res.statusCode !== 202) throw new Error(`ingest: ${res.statusCode} ${res.body}`);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, lane));
    const seconds = (performance.now() - t0) / 1000;
    await services.deliveries.stop();
    const [alerts] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM usage_alerts`);
    const [deliveries] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries`);
    await app.close();
    return { perSecond: events / seconds, alerts: alerts!.n, deliveries: deliveries!.n };
  } finally {
    await cleanup();
  }
}

const hook = await receiver();
const results: Record<'off' | 'on', number[]> = { off: [], on: [] };
console.log(
  `alerts and webhooks, ${engine}: ${events} model requests per round, batches of ${batch}, ${concurrency} at a time, ${userCount} users, ${teamCount} teams`,
);
for (let r = 0; r < Number(values.rounds); r++) {
  for (const on of [false, true]) {
    const res = await round(on, hook);
    results[on ? 'on' : 'off'].push(res.perSecond);
    console.log(`  round ${r + 1}, ${on ? 'on ' : 'off'}: ${Math.round(res.perSecond)} events/s (${res.alerts} alerts, ${res.deliveries} deliveries)`);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`  on / off: ${(mean(results.on) / mean(results.off)).toFixed(2)} (target at least 0.9); webhook requests received: ${hook.received()}`);
await hook.close();
