import { noOutbox, type Outbox } from '../core/outbox.js';
import { stepSettled } from './events.js';
import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { jobsStore, type ClaimedStep } from './steps-store.js';
import type { E2bClient } from './providers/e2b-client.js';
import { runE2bStep, type StepContext } from './providers/e2b-steps.js';
import { E2B_MISSING, onLeaseExpired, STATUS } from './step-machine.js';
import { computersStore } from './store.js';

export interface EngineSettings {
  tickMs: number;
  /** A running step whose holder sent no heartbeat for this long is retried (e2b) or failed (byom). */
  leaseMs: number;
  maxAttempts: number;
  logMaxChars: number;
  /** e2b steps run at once by this engine. */
  concurrency: number;
  e2bTemplate: string;
}

export interface EngineLogger {
  warn(obj: object, msg: string): void;
}

export interface EngineDeps {
  db: Db;
  settings: EngineSettings;
  /** The E2B cloud; without it, e2b steps fail with E2B_MISSING. */
  e2b?: E2bClient;
  clock: Clock;
  /** Where a failed tick is reported; by default nowhere. */
  log?: EngineLogger;
  /** Where a computer that became ready or failed is told of (webhooks); by default nowhere. */
  outbox?: Outbox;
}

/**
 * The background side of provisioning, started by `orgctl serve` (never by buildApp). Each tick it
 * (1) settles expired leases: retries e2b steps up to maxAttempts, fails byom steps whose host agent
 * went silent, and (2) claims e2b steps and runs them, heartbeating while they run. Any number of
 * engines may share one PostgreSQL: claims use FOR UPDATE SKIP LOCKED.
 */
export class ProvisioningEngine {
  readonly id = `engine:${randomUUID()}:`;
  private timer: Timer | undefined;
  private ticking: Promise<void> | undefined;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void>; leaseOwner: string; computerId: string; stepId: string }>();
  private stopped = false;
  private readonly db: Db;
  private readonly settings: EngineSettings;
  private readonly e2b: E2bClient | undefined;
  private readonly clock: Clock;
  private readonly log: EngineLogger;

  private readonly outbox: Outbox;

  constructor({ db, settings, e2b, clock, log = { warn: () => undefined }, outbox = noOutbox }: EngineDeps) {
    this.outbox = outbox;
    this.db = db;
    this.settings = settings;
    this.e2b = e2b;
    this.clock = clock;
    this.log = log;
  }

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.ticking = this.tick()
        .catch((err) => this.log.warn({ err }, 'provisioning engine tick failed'))
        .finally(() => {
          if (!this.stopped) this.timer = this.clock.timeout(loop, this.settings.tickMs);
        });
    };
    loop();
  }

  /**
   * Stops claiming, stops the steps in progress (their commands in the sandbox are killed; a
   * sandbox being created is waited for, so that its id is recorded) and releases their leases
   * so another engine resumes them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.ticking;
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.abort.abort();
    await Promise.allSettled(inFlight.map((r) => r.done));
    for (const r of inFlight) await jobsStore.release(this.db, r.computerId, r.stepId, r.leaseOwner).catch(() => undefined);
  }

  /** Resolves once the steps this engine runs now have ended (recorded, or given up). */
  async whenIdle(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  async tick(): Promise<void> {
    await this.reap();
    const free = this.settings.concurrency - this.running.size;
    if (this.stopped || free <= 0) return;
    const claimed = await this.db.transaction(() =>
      jobsStore.claim(this.db, { provider: 'e2b', limit: free }, this.id, this.settings.leaseMs, this.clock.now()),
    );
    for (const step of claimed) this.execute(step);
  }

  /** Settles every running step whose lease expired, and byom steps queued for an agent that is gone. */
  async reap(): Promise<number> {
    const { leaseMs, maxAttempts } = this.settings;
    const now = this.clock.now();
    const secondsSince = (t: Date) => Math.round((now.getTime() - t.getTime()) / 1000);
    return this.db.transaction(async () => {
      const expired = await jobsStore.lockExpired(this.db, 100, now);
      for (const s of expired) {
        const silentFor = s.heartbeat_at ? secondsSince(s.heartbeat_at) : Math.round(leaseMs / 1000);
        if (onLeaseExpired(s.provider, s.attempts, maxAttempts) === 'release') {
          await jobsStore.release(this.db, s.computer_id, s.step_id);
          continue;
        }
        const error =
          s.provider === 'byom'
            ? `host agent lost: no heartbeat for ${silentFor} s while running ${s.step_id}`
            : `provisioning engine lost: no heartbeat for ${silentFor} s, ${s.attempts} attempts made; giving up`;
        await jobsStore.finish(this.db, s, { status: STATUS.failed, error, exitCode: null }, now);
        await stepSettled(this.db, this.outbox, s.computer_id, { stepId: s.step_id, status: STATUS.failed, error });
      }
      const orphaned = await jobsStore.lockOrphanedQueued(this.db, leaseMs, 100, now);
      for (const s of orphaned) {
        const error = s.agent_seen_at
          ? `host agent lost: no heartbeat for ${secondsSince(s.agent_seen_at)} s; ${s.step_id} was not started`
          : `no host agent connected to this computer within ${Math.round(leaseMs / 1000)} s; run \`orgctl agent\` on the host`;
        await jobsStore.finish(this.db, s, { status: STATUS.failed, error, exitCode: null }, now);
        await stepSettled(this.db, this.outbox, s.computer_id, { stepId: s.step_id, status: STATUS.failed, error });
      }
      return expired.length + orphaned.length;
    });
  }

  private execute(step: ClaimedStep): void {
    const abort = new AbortController();
    const leaseOwner = step.lease_owner as string;
    const key = `${step.computer_id}/${step.step_id}`;
    const done = this.run(step, abort.signal).finally(() => this.running.delete(key));
    this.running.set(key, { abort, done, leaseOwner, computerId: step.computer_id, stepId: step.step_id });
  }

  private async run(step: ClaimedStep, abort: AbortSignal): Promise<void> {
    const leaseOwner = step.lease_owner as string;
    let pending = '';
    let lost = false;
    const flush = async () => {
      const chunk = pending;
      pending = '';
      if (chunk) await jobsStore.appendLog(this.db, step, chunk, this.settings.logMaxChars);
    };
    const beat = this.clock.interval(
      () => {
        void jobsStore
          .heartbeat(this.db, step.computer_id, step.step_id, leaseOwner, this.settings.leaseMs, this.clock.now())
          .then((held) => {
            if (!held) lost = true;
            else return flush();
          })
          .catch((err) => this.log.warn({ err }, 'heartbeat failed'));
      },
      Math.max(50, Math.floor(this.settings.leaseMs / 4)),
    );
    try {
      const computer = await computersStore.findById(this.db, step.computer_id);
      if (!computer) return;
      const ctx: StepContext = {
        computer,
        template: this.settings.e2bTemplate,
        signal: abort,
        output: (chunk) => {
          pending += chunk;
        },
        setSandbox: (id) => computersStore.setSandbox(this.db, computer.id, id),
        setRemoteUser: (user) => computersStore.setRemoteUserIfUnset(this.db, computer.id, user),
        setClonedDirectories: (dirs) => computersStore.setClonedDirectories(this.db, computer.id, dirs),
      };
      const outcome = this.e2b ? await runE2bStep(this.e2b, step.step_id, ctx) : { ok: false, error: E2B_MISSING, exitCode: null };
      if (abort.aborted || lost) return;
      beat.cancel();
      await flush();
      await this.db.transaction(async () => {
        const held = await jobsStore.lockHeld(this.db, step.computer_id, step.step_id, leaseOwner);
        if (!held) return;
        const settled = { status: outcome.ok ? STATUS.succeeded : STATUS.failed, error: outcome.ok ? null : outcome.error };
        await jobsStore.finish(this.db, held, { ...settled, exitCode: outcome.exitCode }, this.clock.now());
        await stepSettled(this.db, this.outbox, held.computer_id, { stepId: held.step_id, ...settled });
      });
    } catch (err) {
      if (abort.aborted || lost) return;
      await flush().catch(() => undefined);
      // An unexpected failure of the cloud (network, API) fails the step with its message.
      await this.db
        .transaction(async () => {
          const held = await jobsStore.lockHeld(this.db, step.computer_id, step.step_id, leaseOwner);
          if (!held) return;
          const error = `E2B: ${(err as Error).message}`;
          await jobsStore.finish(this.db, held, { status: STATUS.failed, error, exitCode: null }, this.clock.now());
          await stepSettled(this.db, this.outbox, held.computer_id, { stepId: held.step_id, status: STATUS.failed, error });
        })
        .catch((e) => this.log.warn({ err: e }, 'recording a failed step failed'));
    } finally {
      beat.cancel();
    }
  }
}
