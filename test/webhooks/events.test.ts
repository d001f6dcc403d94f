import { Webhook } from 'standardwebhooks';
import { jsonAjv } from '../../src/core/validation/ajv.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, type EventType } from '../../src/webhooks/catalogue.js';
import { TestClock } from '../../src/core/clock.js';
import { BareRemote } from '../helpers/git-remote.js';
import { E2bTestDouble } from '../helpers/e2b-test-double.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { Receiver } from './receiver.js';

// Each area emits its events in its own transaction; here each is delivered to a real receiver,
// verified by the reference package and checked against the catalogue's schema.
let t: TestApp;
let org: Org;
let receiver: Receiver;
let secret: string;
let remote: BareRemote;
const e2b = new E2bTestDouble();
const clock = new TestClock();

beforeAll(async () => {
  t = await TestApp.start({ ciAllowPrivateNetwork: true }, { clock, e2b });
  org = await t.createOrg('events-org');
  receiver = await Receiver.start();
  remote = BareRemote.create();
  const res = await t.request<{ secret: string }>('POST', '/api/v0/organization/webhooks', {
    key: org.ownerKey,
    body: { url: receiver.url, eventTypes: Object.keys(CATALOGUE) },
  });
  secret = res.body.secret;
});
afterAll(async () => {
  remote?.remove();
  await receiver?.close();
  await t?.close();
});

/** The events delivered since the last call, verified and checked against their schemas. */
async function delivered(): Promise<{ type: EventType; data: Record<string, unknown> }[]> {
  await t.services.deliveries.tick();
  const out = receiver.received.splice(0).map((r) => {
    const event = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: EventType; data: Record<string, unknown> };
    expect(jsonAjv.compile(CATALOGUE[event.type].data)(event.data)).toBe(true);
    return event;
  });
  return out;
}

describe('the event catalogue, emitted where it happens', () => {
  it('member.added and member.removed', async () => {
    const user = await t.addUser(org, 'member', 'ana@events.test');
    expect(await delivered()).toEqual([
      { type: 'member.added', timestamp: expect.any(String), data: { userId: user.id, email: 'ana@events.test', role: 'member' } },
    ]);
    await t.operatorIdentity.removeUser(org.orgId, 'ana@events.test');
    expect(await delivered()).toEqual([
      expect.objectContaining({ type: 'member.removed', data: { userId: user.id, email: 'ana@events.test', role: 'member' } }),
    ]);
  });

  it('readiness.report_created, and readiness.level_changed when the level differs from the report before', async () => {
    const upload = (numerator: number) =>
      t.request('POST', '/api/organization/maturity-level-reports', {
        key: org.ownerKey,
        body: {
          repoUrl: 'https://github.com/acme/api',
          apps: {},
          report: { lint_config: { numerator, denominator: 1, rationale: 'r' }, unit_tests: { numerator, denominator: 1, rationale: 'r' } },
        },
      });
    expect((await upload(0)).status).toBe(201);
    expect((await delivered()).map((e) => e.type)).toEqual(['readiness.report_created']);
    expect((await upload(0)).status).toBe(201);
    expect((await delivered()).map((e) => e.type)).toEqual(['readiness.report_created']);
    expect((await upload(1)).status).toBe(201);
    const events = await delivered();
    expect(events.map((e) => e.type).sort()).toEqual(['readiness.level_changed', 'readiness.report_created']);
    expect(events.find((e) => e.type === 'readiness.level_changed')!.data).toMatchObject({ repoId: 'github.com/acme/api', previousLevel: 1, level: 2 });

    // Concurrent uploads of one repository: each change of level is told once, against the report just before it.
    const sent = await Promise.all([0, 1, 0, 1, 0, 1, 0, 1].map((n) => upload(n)));
    expect(sent.map((r) => r.status)).toEqual(Array(8).fill(201));
    // Every event of the eight uploads (a tick delivers a batch at most).
    const after: Awaited<ReturnType<typeof delivered>> = [];
    for (let batch = await delivered(); batch.length > 0; batch = await delivered()) after.push(...batch);
    const created = after.filter((e) => e.type === 'readiness.report_created').map((e) => e.data as { reportId: string; level: number });
    const changed = after.filter((e) => e.type === 'readiness.level_changed').map((e) => e.data as { reportId: string; previousLevel: number; level: number });
    const listed = await t.request<{ reports: { reportId: string }[] }>('GET', '/api/organization/maturity-level-reports?limit=100', { key: org.ownerKey });
    const levelOf = new Map(created.map((c) => [c.reportId, c.level]));
    // The eight new reports in the order they were stored (the list is newest first), after the level-2 one.
    const order = listed.body.reports
      .map((r) => r.reportId)
      .filter((id) => levelOf.has(id))
      .reverse();
    const expected = order.flatMap((id, i) => {
      const previous = i === 0 ? 2 : levelOf.get(order[i - 1]!)!;
      return previous === levelOf.get(id) ? [] : [{ reportId: id, previousLevel: previous, level: levelOf.get(id) }];
    });
    expect(
      changed
        .map(({ reportId, previousLevel, level }) => ({ reportId, previousLevel, level }))
        .sort((a, b) => order.indexOf(a.reportId) - order.indexOf(b.reportId)),
    ).toEqual(expected);
  });

  it('ci.pull_request_opened', async () => {
    const res = await t.request<{ pullRequest: { url: string; number: number } }>('POST', '/api/v0/automations/ci/edit', {
      key: org.ownerKey,
      body: { repoUrl: remote.url, action: 'create', workflowPath: '.github/workflows/new.yml', content: 'on: [push]\njobs:\n  a:\n    runs-on: x\n' },
    });
    expect(res.status).toBe(200);
    expect(await delivered()).toEqual([
      expect.objectContaining({
        type: 'ci.pull_request_opened',
        data: expect.objectContaining({ url: res.body.pullRequest.url, number: res.body.pullRequest.number }),
      }),
    ]);
  });

  it('computer.ready and computer.failed', async () => {
    const engine = t.services.engine;
    const create = async (name: string) =>
      (await t.request<{ id: string }>('POST', '/api/v0/computers', { key: org.ownerKey, body: { name, repos: ['https://github.com/acme/api.git'] } })).body.id;
    const until = async (type: string) => {
      const seen: { type: string; data: Record<string, unknown> }[] = [];
      await waitFor(
        async () => {
          await engine.tick();
          await engine.whenIdle();
          seen.push(...(await delivered()));
          return seen.some((e) => e.type === type) ? true : undefined;
        },
        20_000,
        type,
      );
      return seen;
    };
    const ready = await create('ok-1');
    expect((await until('computer.ready')).filter((e) => e.type.startsWith('computer.'))).toEqual([
      expect.objectContaining({ type: 'computer.ready', data: { computerId: ready, name: 'ok-1', provider: 'e2b', ownerId: org.ownerId } }),
    ]);
    e2b.respond = (cmd) => (cmd === 'npm ci' ? { exitCode: 1, stderr: 'npm ERR! broken\n' } : new E2bTestDouble().respond(cmd));
    const failed = await create('bad-1');
    const events = (await until('computer.failed')).filter((e) => e.type.startsWith('computer.'));
    expect(events).toEqual([
      expect.objectContaining({ type: 'computer.failed', data: expect.objectContaining({ computerId: failed, stepId: 'install-dependencies' }) }),
    ]);
    expect(String(events[0]!.data.error)).toContain('npm ERR! broken');
  });
});
