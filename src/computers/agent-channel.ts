import { noOutbox, type Outbox } from '../core/outbox.js';
import { stepSettled } from './events.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import { jobsStore } from './steps-store.js';
import type { CompleteInput, JobView } from './schemas.js';
import type { ComputerRecord } from './view.js';
import type { ComputersService } from './service.js';
import { computersStore as store, type ComputerRow } from './store.js';
import { STATUS, STEP } from './step-machine.js';
import type { WorkSignal } from './work-signal.js';

export interface AgentChannelSettings {
  /** A step whose holder sends no heartbeat for this long is lost. */
  leaseMs: number;
  /** How often a held long poll looks in the database for work queued by another process. */
  pollMs: number;
  logMaxChars: number;
}

export interface AgentChannelDeps {
  db: Db;
  /** Answers with the computer as the computers API shows it. */
  computers: ComputersService;
  settings: AgentChannelSettings;
  /** What a held long poll waits on: woken when its computer has new work in this process. */
  signal: WorkSignal;
  clock: Clock;
  /** Where a computer that became ready or failed is told of (webhooks); by default nowhere. */
  outbox?: Outbox;
}

const LEASE_PREFIX = 'agent:';

/**
 * The host agent's side of a byom computer: it registers its host, long-polls for the next step,
 * heartbeats while it works, streams output and reports the outcome. Every call names the host;
 * a computer bound to another host answers 409.
 */
export class AgentChannel {
  private readonly closing = new AbortController();
  private readonly db: Db;
  private readonly computers: ComputersService;
  private readonly settings: AgentChannelSettings;
  private readonly signal: WorkSignal;
  private readonly clock: Clock;

  private readonly outbox: Outbox;

  constructor({ db, computers, settings, signal, clock, outbox = noOutbox }: AgentChannelDeps) {
    this.outbox = outbox;
    this.db = db;
    this.computers = computers;
    this.settings = settings;
    this.signal = signal;
    this.clock = clock;
  }

  /** Ends every held long poll (with no job), so the service can close without waiting for them. */
  close(): void {
    this.closing.abort();
  }

  async register(actor: Principal, id: string, host: { hostId: string; hostname: string; remoteUser: string }): Promise<ComputerRecord> {
    const computerId = await this.db.transaction(async () => {
      const c = await this.byomComputer(actor, id, true);
      host = { ...host, hostId: host.hostId.toLowerCase() };
      if (c.host_id !== null && c.host_id !== host.hostId) throw this.otherHost(c);
      const now = this.clock.now();
      await store.registerHost(this.db, c.id, host, now);
      await jobsStore.hostConnected(this.db, c.id, now);
      await stepSettled(this.db, this.outbox, c.id, { stepId: STEP.connectHost, status: STATUS.succeeded, error: null });
      return c.id;
    });
    this.signal.notify(computerId);
    return this.computers.get(actor, { id });
  }

  /** The next step for this host, waiting up to `waitMs` for one; null when none came. */
  async claim(actor: Principal, id: string, hostId: string, waitMs: number, gone: AbortSignal): Promise<JobView | null> {
    const abort = AbortSignal.any([gone, this.closing.signal]);
    hostId = hostId.toLowerCase();
    // The poll's deadline and its waits are on the clock: a test's clock ends the poll without sleeping.
    const deadline = this.clock.now().getTime() + waitMs;
    let touched = 0;
    for (;;) {
      const c = await this.byomComputer(actor, id);
      if (c.host_id !== hostId)
        throw c.host_id === null ? errors.conflict('host_not_registered', 'Register the host first (POST …/agent/register).') : this.otherHost(c);
      const now = this.clock.now();
      if (now.getTime() - touched > this.settings.leaseMs / 3) {
        await store.touchAgent(this.db, c.id, now);
        touched = now.getTime();
      }
      if (abort.aborted) return null;
      const [step] = await this.db.transaction(() =>
        jobsStore.claim(this.db, { provider: 'byom', computerId: c.id, limit: 1 }, LEASE_PREFIX, this.settings.leaseMs, this.clock.now()),
      );
      if (step && abort.aborted) {
        // The agent hung up while the claim ran: queue the step again rather than lease it to nobody.
        await jobsStore.release(this.db, c.id, step.step_id, step.lease_owner as string);
        return null;
      }
      if (step) {
        return {
          stepId: step.step_id,
          leaseToken: step.lease_owner as string,
          heartbeatIntervalMs: Math.max(100, Math.floor(this.settings.leaseMs / 4)),
          computerName: c.name,
          repos: c.repos,
          clonedRepoDirectories: c.cloned_repo_directories ?? [],
          installSessionId: step.install_session_id ?? undefined,
        };
      }
      const left = deadline - this.clock.now().getTime();
      if (left <= 0) return null;
      await this.signal.wait(c.id, Math.min(left, this.settings.pollMs), abort);
    }
  }

  async heartbeat(actor: Principal, id: string, stepId: string, body: { leaseToken: string; log?: string }): Promise<number> {
    const c = await this.byomComputer(actor, id);
    const now = this.clock.now();
    const held = await jobsStore.heartbeat(this.db, c.id, stepId, body.leaseToken, this.settings.leaseMs, now);
    if (!held) throw this.leaseLost(stepId);
    await Promise.all([store.touchAgent(this.db, c.id, now), body.log && jobsStore.appendLog(this.db, held, body.log, this.settings.logMaxChars)]);
    return held.lease_expires_at.getTime();
  }

  async complete(actor: Principal, id: string, stepId: string, body: CompleteInput): Promise<ComputerRecord> {
    const computerId = await this.db.transaction(async () => {
      const c = await this.byomComputer(actor, id);
      const step = await jobsStore.lockHeld(this.db, c.id, stepId, body.leaseToken);
      if (!step) throw this.leaseLost(stepId);
      if (body.log) await jobsStore.appendLog(this.db, step, body.log, this.settings.logMaxChars);
      if (body.status === STATUS.succeeded && stepId === STEP.cloneRepos) await store.setClonedDirectories(this.db, c.id, body.clonedRepoDirectories ?? []);
      const error =
        body.status === STATUS.failed ? (body.error ?? `The step failed${body.exitCode === undefined ? '' : ` with exit code ${body.exitCode}`}.`) : null;
      const now = this.clock.now();
      await jobsStore.finish(this.db, step, { status: body.status, error, exitCode: body.exitCode ?? null }, now);
      await stepSettled(this.db, this.outbox, c.id, { stepId, status: body.status, error });
      await store.touchAgent(this.db, c.id, now);
      return c.id;
    });
    this.signal.notify(computerId);
    return this.computers.get(actor, { id });
  }

  private async byomComputer(actor: Principal, id: string, lock = false): Promise<ComputerRow> {
    const c = await this.computers.mustFind(actor, { id }, lock);
    if (c.provider !== 'byom') throw errors.conflict('not_byom', 'This computer is provisioned by e2b, not by a host agent.');
    return c;
  }

  private otherHost(c: ComputerRow) {
    return errors.conflict('host_mismatch', `This computer is bound to another host (${c.host_id}); change its hostId first.`, { hostId: c.host_id });
  }

  private leaseLost(stepId: string) {
    return errors.conflict('lease_lost', `The step ${stepId} is no longer held by this agent (its lease expired or it finished).`);
  }
}
