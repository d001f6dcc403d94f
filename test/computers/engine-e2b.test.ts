import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/services.js';
import type { ProvisioningEngine } from '../../src/computers/engine.js';
import { jobsStore } from '../../src/computers/steps-store.js';
import { loadConfig } from '../../src/config.js';
import { TestClock } from '../../src/core/clock.js';
import { E2bTestDouble } from '../helpers/e2b-test-double.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

type Step = { id: string; status: string; error?: string; installSessionId?: string };
type Computer = { id: string; status: string; providerType: string; provisioningSteps: Step[]; remoteUser?: string; clonedRepoDirectories?: string[] };
const C = '/api/v0/computers';
// The engines tick, heartbeat and expire leases by the test's clock, so a lease costs no real time.
const LEASE_MS = 4_000;
const TICK_MS = 30;
const config = loadConfig({}, { logLevel: 'silent', computersLeaseMs: LEASE_MS, computersEngineTickMs: TICK_MS, computersMaxAttempts: 2 });

let t: TestApp;
let org: Org;
let e2b: E2bTestDouble;
// Leases expire, and engines tick, when the test moves this clock, not after a sleep.
const clock = new TestClock();
const engines: ProvisioningEngine[] = [];

beforeAll(async () => {
  e2b = new E2bTestDouble();
  t = await TestApp.start({ computersLeaseMs: LEASE_MS }, { e2b, clock });
  org = await t.createOrg('engine-e2b');
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
  e2b.hold = undefined;
  e2b.release();
  e2b.respond = new E2bTestDouble().respond;
});
afterAll(() => t?.close());

const startEngine = () => {
  const engine = buildServices(config, { db: t.db, e2b, clock }).engine;
  engines.push(engine);
  engine.start();
  return engine;
};
const get = async (id: string) => (await t.request<Computer>('GET', `${C}/${id}`, { key: org.ownerKey })).body;
/** Waits for `probe`, passing one engine tick of the clock before each look. */
const ticking = <T>(probe: () => Promise<T | undefined>, what: string) =>
  waitFor(
    () => {
      clock.advance(TICK_MS);
      return probe();
    },
    10_000,
    what,
  );
const settled = (id: string, status: 'active' | 'error') =>
  ticking(async () => {
    const c = await get(id);
    return c.status === status ? c : undefined;
  }, `computer ${status}`);
const commandRan = (mark: number, part: string) =>
  ticking(async () => (e2b.commands.slice(mark).some((x) => x.cmd.includes(part)) ? true : undefined), `${part} running`);
const stepOf = (c: Computer, id: string) => c.provisioningSteps.find((s) => s.id === id) as Step;

describe('the e2b provider, run by the provisioning engine', () => {
  it('provisions create-sandbox → configure-user → clone-repos → install-dependencies to active', async () => {
    startEngine();
    const res = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-1', repos: ['https://github.com/acme/api.git'] } });
    expect(res.body.providerType).toBe('e2b');
    const c = await settled(res.body.id, 'active');
    expect(c.provisioningSteps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(c.remoteUser).toBe('user');
    expect(c.clonedRepoDirectories).toEqual(['/home/user/api']);
    const sandboxId = [...e2b.sandboxes.entries()].find(([, s]) => s.metadata.orgctlComputerId === c.id)![0];
    const cmds = e2b.commands.filter((x) => x.sandboxId === sandboxId).map((x) => x.cmd);
    expect(cmds.some((x) => x.includes('useradd'))).toBe(true);
    expect(cmds.some((x) => x.includes("clone -- 'https://github.com/acme/api.git' '/home/user/api'") && x.includes('-c protocol.allow=never'))).toBe(true);
    expect(cmds).toContain('npm ci');
    // The command's output reaches the log of the step whose lease the engine holds (the stale engine's below does not).
    const configure = await t.request<{ log: string }>('GET', `${C}/${c.id}/provisioning-steps/configure-user`, { key: org.ownerKey });
    expect(configure.body.log).toContain('useradd');
    const session = await t.request<{ status: string; exitCode: number; log: string }>(
      'GET',
      `${C}/${c.id}/install-sessions/${stepOf(c, 'install-dependencies').installSessionId}`,
      { key: org.ownerKey },
    );
    expect(session.body).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(session.body.log).toContain('package-lock.json found; $ npm ci');
  });

  it('a failing install fails the step with exit code and stderr; install-deps again succeeds with a new session', async () => {
    startEngine();
    e2b.respond = (cmd) => (cmd === 'npm ci' ? { exitCode: 1, stderr: 'npm ERR! code E404\nnpm ERR! missing: left-pad\n' } : new E2bTestDouble().respond(cmd));
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-fail', repos: ['https://github.com/acme/web.git'] } });
    const failed = await settled(created.body.id, 'error');
    const install = stepOf(failed, 'install-dependencies');
    expect(install.status).toBe('failed');
    expect(install.error).toContain('exited with code 1');
    expect(install.error).toContain('npm ERR! missing: left-pad');
    const firstSession = install.installSessionId as string;
    const s1 = (await t.request<{ status: string; exitCode: number }>('GET', `${C}/${failed.id}/install-sessions/${firstSession}`, { key: org.ownerKey })).body;
    expect(s1).toMatchObject({ status: 'failed', exitCode: 1 });

    e2b.respond = new E2bTestDouble().respond;
    const again = await t.request<Computer>('POST', `${C}/${failed.id}/install-deps`, { key: org.ownerKey });
    expect(again.status).toBe(202);
    expect(stepOf(again.body, 'install-dependencies').status).toBe('running');
    expect(stepOf(again.body, 'install-dependencies').installSessionId).not.toBe(firstSession);
    const active = await settled(failed.id, 'active');
    expect(stepOf(active, 'install-dependencies').error).toBeUndefined();
  });

  it('a step whose engine died (claimed, never heartbeated) is retried by another engine after the lease expires', async () => {
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-crash' } });
    // What a crashed process leaves behind: the step claimed under a lease nobody renews.
    const [claimed] = await t.db.transaction(() =>
      jobsStore.claim(t.db, { provider: 'e2b', computerId: created.body.id, limit: 1 }, 'engine:crashed:', LEASE_MS, clock.now()),
    );
    expect(claimed?.step_id).toBe('create-sandbox');
    expect(stepOf(await get(created.body.id), 'create-sandbox').status).toBe('running');
    startEngine();
    clock.advance(LEASE_MS + 1);
    const c = await settled(created.body.id, 'active');
    expect(stepOf(c, 'create-sandbox').status).toBe('succeeded');
  });

  it('a step lost more often than COMPUTERS_MAX_ATTEMPTS fails with a message saying so', async () => {
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-lost' } });
    const reaper = buildServices(config, { db: t.db, e2b, clock }).engine; // not started: its reap() is called by hand
    const crashClaim = () =>
      t.db.transaction(() => jobsStore.claim(t.db, { provider: 'e2b', computerId: created.body.id, limit: 1 }, 'engine:crashed:', LEASE_MS, clock.now()));
    const leaseOf = async () =>
      (
        await t.db.query<{ lease_owner: string | null }>(`SELECT lease_owner FROM computer_steps WHERE computer_id = $1 AND step_id = 'create-sandbox'`, [
          created.body.id,
        ])
      )[0]!.lease_owner;

    expect((await crashClaim()).length).toBe(1);
    clock.advance(LEASE_MS);
    expect(await reaper.reap()).toBe(0); // the lease is valid to its last millisecond
    clock.advance(1);
    expect(await reaper.reap()).toBe(1);
    expect(await leaseOf()).toBeNull(); // attempt 1 of 2: released for a retry
    expect(stepOf(await get(created.body.id), 'create-sandbox').status).toBe('running');

    expect((await crashClaim()).length).toBe(1);
    clock.advance(5_000);
    expect(await reaper.reap()).toBe(1);
    const c = await get(created.body.id);
    expect(c.status).toBe('error');
    expect(stepOf(c, 'create-sandbox').error).toBe('provisioning engine lost: no heartbeat for 5 s, 2 attempts made; giving up');
  });

  it('stopping an engine kills the command it runs and releases its lease at once, and another engine finishes the step', async () => {
    e2b.hold = (cmd) => cmd.includes('useradd');
    const mark = e2b.commands.length;
    const first = startEngine();
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-handover' } });
    await commandRan(mark, 'useradd');
    // The held command never finishes by itself: stop() returns only because it kills it.
    await first.stop();
    expect(e2b.killed.filter((cmd) => cmd.includes('useradd'))).toHaveLength(1);
    const rows = await t.db.query<{ lease_owner: string | null; status: string }>(
      `SELECT lease_owner, status FROM computer_steps WHERE computer_id = $1 AND step_id = 'configure-user'`,
      [created.body.id],
    );
    expect(rows[0]).toEqual({ lease_owner: null, status: 'running' });
    e2b.hold = undefined;
    startEngine();
    expect((await settled(created.body.id, 'active')).status).toBe('active');
  });

  it('an engine that lost its lease adds nothing to the log of the step another holder took', async () => {
    e2b.hold = (cmd) => cmd.includes('useradd');
    const mark = e2b.commands.length;
    const engine = startEngine();
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-stale' } });
    await commandRan(mark, 'useradd');
    const stepRow = async () =>
      (
        await t.db.query<{ lease_owner: string; status: string; log: string }>(
          `SELECT lease_owner, status, log FROM computer_steps WHERE computer_id = $1 AND step_id = 'configure-user'`,
          [created.body.id],
        )
      )[0]!;
    // Another executor holds the step now (as after an expiry); then the stale engine's command ends, with output.
    await t.db.query(`UPDATE computer_steps SET lease_owner = 'engine:other:', lease_expires_at = $2 WHERE computer_id = $1 AND step_id = 'configure-user'`, [
      created.body.id,
      new Date(clock.now().getTime() + 3_600_000),
    ]);
    e2b.release();
    // The stale engine has done all it will with the step (its output, `ran: … useradd …`, written or refused) before the look.
    await engine.whenIdle();
    expect(e2b.commands.slice(mark).filter((x) => x.cmd.includes('useradd'))).toHaveLength(1);
    const row = await stepRow();
    expect(row).toMatchObject({ lease_owner: 'engine:other:', status: 'running' });
    expect(row.log).not.toContain('useradd');
  });

  it('DELETE kills the sandbox', async () => {
    startEngine();
    const created = await t.request<Computer>('POST', C, { key: org.ownerKey, body: { name: 'cloud-delete' } });
    await settled(created.body.id, 'active');
    const [sandboxId, sandbox] = [...e2b.sandboxes.entries()].find(([, s]) => s.metadata.orgctlComputerId === created.body.id)!;
    expect(sandbox.alive).toBe(true);
    expect((await t.request('DELETE', `${C}/${created.body.id}`, { key: org.ownerKey })).status).toBe(204);
    expect(e2b.sandboxes.get(sandboxId)!.alive).toBe(false);
    expectErrorObject(await t.request('GET', `${C}/${created.body.id}`, { key: org.ownerKey }), 404);
  });
});
