import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/services.js';
import { loadConfig } from '../../src/config.js';
import { TestClock } from '../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

type Step = { id: string; status: string; error?: string; installSessionId?: string; startedAt?: number };
type Computer = {
  id: string;
  status: string;
  hostId?: string;
  hostname?: string;
  remoteUser?: string;
  provisioningSteps: Step[];
  clonedRepoDirectories?: string[];
};
type Job = { stepId: string; leaseToken: string; installSessionId?: string; repos: string[]; clonedRepoDirectories: string[] };
const C = '/api/v0/computers';
const LEASE_MS = 400;
const TICK_MS = 30;
const HOST = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

let t: TestApp;
let org: Org;
// Long polls, leases and the engine's ticks run on this clock: time passes only when a test moves it.
const clock = new TestClock();

beforeAll(async () => {
  // A database poll of 10 s: a held long poll that answers while the clock stands still was woken by the signal.
  t = await TestApp.start({ computersLeaseMs: LEASE_MS, computersAgentPollMs: 10_000, installLogMaxChars: 1024, ciAllowPrivateNetwork: true }, { clock });
  org = await t.createOrg('install-deps');
});
afterAll(() => t?.close());

const key = () => org.ownerKey;
const create = async (body: Record<string, unknown>) => (await t.request<Computer>('POST', C, { key: key(), body })).body;
const get = async (id: string) => (await t.request<Computer>('GET', `${C}/${id}`, { key: key() })).body;
const stepOf = (c: Computer, id: string) => c.provisioningSteps.find((s) => s.id === id) as Step;
const agent = (id: string) => ({
  register: (hostId = HOST) =>
    t.request<Computer>('POST', `${C}/${id}/agent/register`, { key: key(), body: { hostId, hostname: 'build-7', remoteUser: 'ci' } }),
  claim: async (waitMs = 0, hostId = HOST) => t.request<{ job: Job | null }>('POST', `${C}/${id}/agent/claim`, { key: key(), body: { hostId, waitMs } }),
  heartbeat: (job: Job, log?: string) =>
    t.request('POST', `${C}/${id}/agent/steps/${job.stepId}/heartbeat`, { key: key(), body: { leaseToken: job.leaseToken, ...(log ? { log } : {}) } }),
  complete: (job: Job, body: Record<string, unknown>) =>
    t.request<Computer>('POST', `${C}/${id}/agent/steps/${job.stepId}/complete`, { key: key(), body: { leaseToken: job.leaseToken, ...body } }),
});
/** A started engine on the test's clock, stopped by the returned function. */
const startEngine = () => {
  const engine = buildServices(loadConfig({}, { logLevel: 'silent', computersLeaseMs: LEASE_MS, computersEngineTickMs: TICK_MS }), { db: t.db, clock }).engine;
  engine.start();
  return engine;
};
/** Waits for computer `id` to fail, passing one engine tick of the clock before each look. */
const failed = (id: string) =>
  waitFor(
    async () => {
      clock.advance(TICK_MS);
      const now = await get(id);
      return now.status === 'error' ? now : undefined;
    },
    10_000,
    'the step to fail',
  );
/** Starts a long poll and resolves, with its answer to come, once it waits on the clock. */
const heldPoll = async (id: string, waitMs: number) => {
  const before = clock.pending;
  const answer = agent(id).claim(waitMs);
  await waitFor(async () => (clock.pending > before ? true : undefined), 10_000, 'the long poll to wait');
  return { answer };
};
const sessionCount = async (id: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM install_sessions WHERE computer_id = $1`, [id]))[0]!.n;

describe('install-deps', () => {
  it('100 parallel requests: exactly one 202, 99 × 409, one session row', async () => {
    const c = await create({ name: 'race', autoInstallDeps: false });
    const results = await Promise.all(Array.from({ length: 100 }, () => t.request<Computer>('POST', `${C}/${c.id}/install-deps`, { key: key() })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    for (const r of results.filter((x) => x.status === 409)) expect(expectErrorObject(r, 409).detail).toContain('already running');
    expect(await sessionCount(c.id)).toBe(1);
    const winner = results.find((r) => r.status === 202)!.body;
    expect(stepOf(winner, 'install-dependencies')).toMatchObject({ status: 'running' });
    expect(stepOf(await get(c.id), 'install-dependencies').installSessionId).toBe(stepOf(winner, 'install-dependencies').installSessionId);
    // Every refusal names the session that is running, in its detail and in metadata.
    const running = stepOf(winner, 'install-dependencies').installSessionId;
    for (const r of results.filter((x) => x.status === 409)) {
      const err = expectErrorObject(r, 409);
      expect(err.metadata).toEqual({ code: 'install_running', installSessionId: running });
      expect(err.detail).toContain(running);
    }
  });

  it('a queued session has no startedAt until the host agent takes it', async () => {
    const c = await create({ name: 'queued', autoInstallDeps: false });
    await agent(c.id).register();
    const res = await t.request<Computer>('POST', `${C}/${c.id}/install-deps`, { key: key() });
    const sessionId = stepOf(res.body, 'install-dependencies').installSessionId!;
    const before = (await t.request<{ status: string; startedAt: number | null }>('GET', `${C}/${c.id}/install-sessions/${sessionId}`, { key: key() })).body;
    expect(before).toMatchObject({ status: 'running', startedAt: null });
    const job = (await agent(c.id).claim()).body.job!;
    expect(job).toMatchObject({ stepId: 'install-dependencies', installSessionId: sessionId });
    const after = (await t.request<{ startedAt: number | null }>('GET', `${C}/${c.id}/install-sessions/${sessionId}`, { key: key() })).body;
    expect(typeof after.startedAt).toBe('number');
    await agent(c.id).complete(job, { status: 'succeeded', exitCode: 0 });
  });

  it('state machine: install-deps is 202 exactly when no session runs, and never two running sessions (property)', async () => {
    const c = await create({ name: 'machine', autoInstallDeps: false });
    await agent(c.id).register();
    let held: Job | undefined;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('install-deps', 'claim', 'succeed', 'fail'), { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const op of ops) {
          const running = stepOf(await get(c.id), 'install-dependencies').status === 'running';
          if (op === 'install-deps') {
            const res = await t.request('POST', `${C}/${c.id}/install-deps`, { key: key() });
            expect(res.status).toBe(running ? 409 : 202);
          } else if (op === 'claim') {
            const job = (await agent(c.id).claim()).body.job;
            // Work is handed out only for a queued session, and only once.
            if (job) expect(running && held === undefined).toBe(true);
            else expect(!running || held !== undefined).toBe(true);
            held = job ?? held;
          } else if (held) {
            const res = await agent(c.id).complete(
              held,
              op === 'succeed' ? { status: 'succeeded', exitCode: 0 } : { status: 'failed', exitCode: 2, error: 'boom' },
            );
            expect(res.status).toBe(200);
            expect(stepOf(res.body, 'install-dependencies').status).toBe(op === 'succeed' ? 'succeeded' : 'failed');
            expect(res.body.status).toBe(op === 'succeed' ? 'active' : 'error');
            held = undefined;
          }
          const runningSessions = await t.db.query(`SELECT id FROM install_sessions WHERE computer_id = $1 AND status = 'running'`, [c.id]);
          expect(runningSessions.length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('the host agent protocol', () => {
  it('register, clone, install: steps, host fields, logs and the session as the agent reports them', async () => {
    const c = await create({ name: 'proto', repos: ['file:///srv/git/app.git'] });
    const a = agent(c.id);
    expectErrorObject(await a.claim(), 409); // not registered yet
    const reg = await a.register();
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ hostId: HOST, hostname: 'build-7', remoteUser: 'ci' });
    expect(stepOf(reg.body, 'connect-host').status).toBe('succeeded');
    expectErrorObject(await a.claim(0, '00000000-0000-4000-8000-000000000000'), 409);

    const clone = (await a.claim()).body.job!;
    expect(clone).toMatchObject({ stepId: 'clone-repos', repos: ['file:///srv/git/app.git'] });
    expect((await a.heartbeat(clone, 'Cloning into app...\n')).status).toBe(200);
    const cloned = await a.complete(clone, { status: 'succeeded', exitCode: 0, clonedRepoDirectories: ['/work/proto/app'], log: 'done\n' });
    expect(cloned.body.clonedRepoDirectories).toEqual(['/work/proto/app']);
    const cloneStep = (await t.request<{ status: string; log: string }>('GET', `${C}/${c.id}/provisioning-steps/clone-repos`, { key: key() })).body;
    expect(cloneStep).toMatchObject({ status: 'succeeded', log: 'Cloning into app...\ndone\n' });
    expectErrorObject(await a.complete(clone, { status: 'succeeded' }), 409); // the lease ended with the step

    const install = (await a.claim()).body.job!;
    expect(install).toMatchObject({ stepId: 'install-dependencies', clonedRepoDirectories: ['/work/proto/app'] });
    await a.heartbeat(install, 'added 0 packages\n');
    const failed = await a.complete(install, { status: 'failed', exitCode: 1, error: '`npm ci` in /work/proto/app exited with code 1:\nnpm ERR! boom' });
    expect(failed.body.status).toBe('error');
    expect(stepOf(failed.body, 'install-dependencies').error).toContain('npm ERR! boom');
    const session = (await t.request<Record<string, unknown>>('GET', `${C}/${c.id}/install-sessions/${install.installSessionId}`, { key: key() })).body;
    expect(session).toMatchObject({ status: 'failed', exitCode: 1, log: 'added 0 packages\n', logTruncated: false });
    expect(typeof session.endedAt).toBe('number');
  });

  it('a failed clone settles the install behind it: skipped with the reason, nothing left pending; install-deps brings both back', async () => {
    const c = await create({ name: 'unreachable', repos: ['https://nowhere.invalid/acme/web.git'] });
    const a = agent(c.id);
    await a.register();
    const clone = (await a.claim()).body.job!;
    const error =
      "git clone https://nowhere.invalid/acme/web.git exited with code 128:\nfatal: unable to access 'https://nowhere.invalid/acme/web.git/': Could not resolve host: nowhere.invalid";
    const failed = (await a.complete(clone, { status: 'failed', exitCode: 128, error })).body;
    expect(failed.status).toBe('error');
    expect(failed.provisioningSteps.map((s) => [s.id, s.status])).toEqual([
      ['connect-host', 'succeeded'],
      ['clone-repos', 'failed'],
      ['install-dependencies', 'skipped'],
    ]);
    expect(stepOf(failed, 'clone-repos').error).toBe(error);
    expect(stepOf(failed, 'install-dependencies').error).toBe('Not run: the step Clone the repositories (clone-repos) failed.');
    expect((await a.claim()).body.job).toBeNull();

    const again = await t.request<Computer>('POST', `${C}/${c.id}/install-deps`, { key: key() });
    expect(again.status).toBe(202);
    expect(again.body.provisioningSteps.map((s) => s.status)).toEqual(['succeeded', 'pending', 'running']);
    expect(stepOf(again.body, 'install-dependencies').error).toBeUndefined();
    const retry = (await a.claim()).body.job!;
    expect(retry.stepId).toBe('clone-repos');
    // Failing again settles the queued install too, and ends its session.
    const twice = (await a.complete(retry, { status: 'failed', exitCode: 128, error })).body;
    expect(stepOf(twice, 'install-dependencies')).toMatchObject({ status: 'skipped', error: 'Not run: the step Clone the repositories (clone-repos) failed.' });
    const session = (
      await t.request<{ status: string; error: string }>(
        'GET',
        `${C}/${c.id}/install-sessions/${stepOf(again.body, 'install-dependencies').installSessionId}`,
        { key: key() },
      )
    ).body;
    expect(session).toMatchObject({ status: 'failed', error: 'Not run: the step Clone the repositories (clone-repos) failed.' });
  });

  it('a session keeps the tail of a long log (INSTALL_LOG_MAX_CHARS) and says it was truncated', async () => {
    const c = await create({ name: 'chatty', autoInstallDeps: false });
    await agent(c.id).register();
    await t.request('POST', `${C}/${c.id}/install-deps`, { key: key() });
    const job = (await agent(c.id).claim()).body.job!;
    const lines = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')}\n`);
    await agent(c.id).heartbeat(job, lines.slice(0, 100).join(''));
    await agent(c.id).complete(job, { status: 'succeeded', exitCode: 0, log: lines.slice(100).join('') });
    const s = (await t.request<{ log: string; logTruncated: boolean }>('GET', `${C}/${c.id}/install-sessions/${job.installSessionId}`, { key: key() })).body;
    expect(s.logTruncated).toBe(true);
    expect(s.log).toHaveLength(1024);
    expect(lines.join('').endsWith(s.log)).toBe(true);
    expect(s.log.endsWith('line 199\n')).toBe(true);
  });

  it('a held long poll answers as soon as install-deps queues work', async () => {
    const c = await create({ name: 'long-poll', autoInstallDeps: false });
    await agent(c.id).register();
    const polling = await heldPoll(c.id, 20_000);
    // The clock stands still from here: neither the poll's deadline nor its database poll can answer it.
    await t.request('POST', `${C}/${c.id}/install-deps`, { key: key() });
    const res = await polling.answer;
    expect(res.body.job?.stepId).toBe('install-dependencies');
  });

  it('a long poll with no work answers {job: null} after waitMs', async () => {
    const c = await create({ name: 'idle', autoInstallDeps: false });
    await agent(c.id).register();
    const polling = await heldPoll(c.id, 50);
    clock.advance(50);
    expect((await polling.answer).body).toEqual({ job: null });
    expect(clock.pending).toBe(0);
  });

  it('a lost agent (no heartbeat) fails its running step with a message naming the lost agent', async () => {
    const engine = startEngine();
    try {
      const c = await create({ name: 'lost', repos: ['file:///srv/git/x.git'] });
      await agent(c.id).register();
      const job = (await agent(c.id).claim()).body.job!;
      const lost = await failed(c.id);
      expect(stepOf(lost, 'clone-repos').error).toMatch(/^host agent lost: no heartbeat for \d+ s/);
      expectErrorObject(await agent(c.id).heartbeat(job), 409);
    } finally {
      await engine.stop();
    }
  });

  it('install-deps on a byom computer whose agent is gone fails, saying no agent is connected', async () => {
    const engine = startEngine();
    try {
      const c = await create({ name: 'no-agent', autoInstallDeps: false });
      await t.request('POST', `${C}/${c.id}/install-deps`, { key: key() });
      const gone = await failed(c.id);
      expect(stepOf(gone, 'install-dependencies').error).toContain('no host agent connected');
      expect(await t.db.query(`SELECT id FROM install_sessions WHERE computer_id = $1 AND status = 'running'`, [c.id])).toEqual([]);
    } finally {
      await engine.stop();
    }
  });

  it('moving a byom computer to another hostId provisions it again there; the old host gets 409', async () => {
    const c = await create({ name: 'mover', repos: ['file:///srv/git/m.git'], autoInstallDeps: false });
    await agent(c.id).register();
    const clone = (await agent(c.id).claim()).body.job!;
    expectErrorObject(await t.request('PATCH', `${C}/${c.id}`, { key: key(), body: { hostId: '0f0e0d0c-0b0a-4908-8706-050403020100' } }), 409); // a step runs
    await agent(c.id).complete(clone, { status: 'succeeded', exitCode: 0, clonedRepoDirectories: ['/old/m'] });
    expect((await get(c.id)).status).toBe('active');
    const moved = await t.request<Computer>('PATCH', `${C}/${c.id}`, { key: key(), body: { hostId: '0f0e0d0c-0b0a-4908-8706-050403020100' } });
    expect(moved.status).toBe(200);
    expect(moved.body.status).toBe('provisioning');
    expect(moved.body.provisioningSteps.map((s) => s.status)).toEqual(['pending', 'pending', 'skipped']);
    expect(moved.body).not.toHaveProperty('clonedRepoDirectories');
    expectErrorObject(await agent(c.id).claim(), 409); // the old host
    expect((await agent(c.id).register('0f0e0d0c-0b0a-4908-8706-050403020100')).status).toBe(200);
    expect((await agent(c.id).claim(0, '0f0e0d0c-0b0a-4908-8706-050403020100')).body.job?.stepId).toBe('clone-repos');
  });

  it('agent endpoints reject e2b computers (409) and unknown properties (400)', async () => {
    const e2bComputer = await create({ name: 'e2b-one', provider: 'e2b' });
    expectErrorObject(await agent(e2bComputer.id).register(), 409);
    const c = await create({ name: 'strict' });
    expectErrorObject(
      await t.request('POST', `${C}/${c.id}/agent/register`, { key: key(), body: { hostId: HOST, hostname: 'h', remoteUser: 'u', extra: 1 } }),
      400,
    );
  });
});
