import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { LogLines } from './log-lines.js';
import { ProcessLedger } from './process-ledger.js';
import { failureMessage, GIT_PROTOCOLS, installRepositories, oneLine, repoDirectoryNames } from '../install-plan.js';
import type { JobView } from '../schemas.js';
import { ApiError, createApiClient, isTransient, unwrap, type OrgctlClient } from '../../client/api-client.js';
import { runStepProcess } from './run-process.js';
import { retry } from '../../core/retry.js';
import { millisOf, systemClock, type Clock } from '../../core/clock.js';

export interface HostAgentOptions {
  url: string;
  key: string;
  computer: string;
  workdir: string;
  hostId: string;
  hostname: string;
  remoteUser: string;
  /** pino, one JSON line per event, like the service's log. */
  log: Logger;
  /** The environment of the commands the agent runs (git, package managers). */
  env: NodeJS.ProcessEnv;
  /** How long one long poll is held by the service. */
  waitMs?: number;
  /** Times the heartbeats and the outage reports (the system clock unless given). */
  clock?: Clock;
}

type Outcome = { status: 'succeeded' | 'failed'; error?: string; exitCode?: number; clonedRepoDirectories?: string[] };

/**
 * `orgctl agent`: registers this machine as the host of one byom computer, then long-polls the
 * service for steps and runs them here (git clone, dependency install), heartbeating and streaming
 * output while they run. A lost connection is retried; the service fails a step whose heartbeats stop.
 */
export class HostAgent {
  private readonly api: OrgctlClient;
  private readonly stopping = new AbortController();
  private stopReason = '';
  private computerId = '';

  private readonly ledger: ProcessLedger;
  private readonly clock: Clock;

  constructor(private readonly o: HostAgentOptions) {
    this.clock = o.clock ?? systemClock;
    this.api = createApiClient({ url: o.url, key: o.key });
    this.ledger = new ProcessLedger(o.workdir);
  }

  /** A command of a step (a program and its arguments), recorded on disk while it runs and alone in its directory. */
  private async runRecorded(argv: [string, ...string[]], cwd: string, signal: AbortSignal, output: (chunk: string) => void, env: NodeJS.ProcessEnv) {
    const lock = this.ledger.lock(cwd);
    if ('heldBy' in lock) {
      return {
        exitCode: null,
        signal: null,
        stderr: `another host agent (pid ${lock.heldBy}) is running a command in ${cwd}; not starting a second one there`,
      };
    }
    try {
      return await runStepProcess(argv, { cwd, signal, onOutput: output, env, onStart: (pgid) => this.ledger.record(pgid, cwd, argv.join(' ')) });
    } finally {
      lock.release();
    }
  }

  /** Stops polling and ends the step in progress (its processes are killed, the step reported failed). */
  stop(reason: string): void {
    this.stopReason = reason;
    this.stopping.abort();
  }

  async run(): Promise<void> {
    for (const left of await this.ledger.endLeftovers()) {
      this.o.log.info(`ended what a previous agent left running in ${left.cwd} (process group ${left.pgid}: ${left.command.slice(0, 120)})`);
    }
    const computer = await this.retrying(() =>
      unwrap(this.api.GET('/api/v0/computers/name/{name}', { params: { path: { name: this.o.computer } }, signal: this.callSignal(30_000) })),
    );
    if (!computer) return;
    this.computerId = computer.id;
    await this.retrying(() =>
      unwrap(
        this.api.POST('/api/v0/computers/{computerId}/agent/register', {
          params: { path: { computerId: this.computerId } },
          body: { hostId: this.o.hostId, hostname: this.o.hostname, remoteUser: this.o.remoteUser },
          signal: this.callSignal(30_000),
        }),
      ),
    );
    this.o.log.info(`registered host ${this.o.hostname} (${this.o.hostId}) for computer ${computer.name} (${computer.id}); waiting for work`);
    while (!this.stopping.signal.aborted) {
      const claimed = await this.retrying(() =>
        unwrap(
          this.api.POST('/api/v0/computers/{computerId}/agent/claim', {
            params: { path: { computerId: this.computerId } },
            body: { hostId: this.o.hostId, waitMs: this.o.waitMs ?? 25_000 },
            signal: AbortSignal.any([this.stopping.signal, this.clock.abortAfter((this.o.waitMs ?? 25_000) + 15_000)]),
          }),
        ),
      );
      if (claimed?.job) await this.execute(claimed.job);
    }
  }

  /** Each call ends in time: an unanswered request is retried like a refused one. */
  private callSignal(timeoutMs: number): AbortSignal {
    return this.clock.abortAfter(timeoutMs);
  }

  /** Since when the service has not answered; undefined while it does. */
  private lostSince: number | undefined;

  /** The service answered: after an outage, say so once, so an operator reading the log knows the agent is back. */
  private reached(): void {
    if (this.lostSince === undefined) return;
    this.o.log.info(`reconnected to the service after ${((millisOf(this.clock) - this.lostSince) / 1000).toFixed(1)} s`);
    this.lostSince = undefined;
  }

  /** Runs fn until it succeeds, retrying while the service is unreachable; undefined once stopping. */
  private async retrying<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (this.stopping.signal.aborted) return undefined;
    const got = await retry(fn, {
      firstDelayMs: 500,
      maxDelayMs: 5000,
      retryable: isTransient,
      signal: this.stopping.signal,
      onRetry: (e, delay) => {
        this.lostSince ??= millisOf(this.clock);
        this.o.log.warn(`service unreachable (${(e as Error).message}); retrying in ${delay} ms`);
      },
    });
    if (got === 'stopped') return undefined;
    this.reached();
    return got.value;
  }

  private async execute(job: JobView): Promise<void> {
    this.o.log.info(`running ${job.stepId}`);
    const work = new AbortController();
    const onStop = () => work.abort();
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    const pending = new LogLines();
    let leaseLost = false;
    const step = { path: { computerId: this.computerId, stepId: job.stepId } };
    const beat = async () => {
      const log = pending.drain();
      try {
        await unwrap(
          this.api.POST('/api/v0/computers/{computerId}/agent/steps/{stepId}/heartbeat', {
            params: step,
            body: { leaseToken: job.leaseToken, ...(log ? { log } : {}) },
            signal: this.callSignal(job.heartbeatIntervalMs * 2),
          }),
        );
        this.reached();
      } catch (e) {
        if (e instanceof ApiError && (e.status === 409 || e.status === 404)) {
          leaseLost = true;
          this.o.log.warn(`lost ${job.stepId}: ${e.detail}`);
          work.abort();
        } else {
          pending.unshift(log);
          this.lostSince ??= millisOf(this.clock);
          this.o.log.warn(`heartbeat of ${job.stepId} failed (${(e as Error).message}); still working, retrying`);
        }
      }
    };
    let beating = Promise.resolve();
    const timer = this.clock.interval(
      () => {
        beating = beating.then(beat);
      },
      Math.min(job.heartbeatIntervalMs, 500),
    );
    const output = (chunk: string) => pending.push(chunk);
    let outcome: Outcome;
    try {
      outcome = await this.runStep(job, output, work.signal);
    } catch (e) {
      outcome = { status: 'failed', error: `host agent error: ${(e as Error).message}` };
    } finally {
      timer.cancel();
      this.stopping.signal.removeEventListener('abort', onStop);
    }
    await beating;
    if (leaseLost) return;
    if (this.stopping.signal.aborted) outcome = { status: 'failed', error: `host agent stopped (${this.stopReason || 'signal'}) during ${job.stepId}` };
    const rest = pending.drain(true);
    const body = { leaseToken: job.leaseToken, ...outcome, ...(rest ? { log: rest } : {}) };
    // Reported even while stopping (once), so the step does not wait for its lease to expire; while
    // running, an unreachable service is retried until the lease would have expired anyway, or a
    // stop ends the waiting.
    const stopping = this.stopping.signal.aborted;
    try {
      const sent = await retry(
        () => unwrap(this.api.POST('/api/v0/computers/{computerId}/agent/steps/{stepId}/complete', { params: step, body, signal: this.callSignal(30_000) })),
        {
          firstDelayMs: 250,
          maxDelayMs: 2000,
          retryable: (e) => !stopping && isTransient(e),
          signal: stopping ? undefined : this.stopping.signal,
          withinMs: job.heartbeatIntervalMs * 4,
          onRetry: (e, delay) => this.o.log.warn(`reporting ${job.stepId} failed (${(e as Error).message}); retrying in ${delay} ms`),
        },
      );
      if (sent === 'stopped') {
        this.o.log.warn(`could not report ${job.stepId}: the agent stopped`);
        return;
      }
      this.reached();
      this.o.log.info(`${job.stepId} ${outcome.status}${outcome.error ? `: ${oneLine(outcome.error)}` : ''}`);
    } catch (e) {
      this.o.log.warn(`could not report ${job.stepId}: ${(e as Error).message}`);
    }
  }

  private async runStep(job: JobView, output: (chunk: string) => void, signal: AbortSignal): Promise<Outcome> {
    const base = path.resolve(this.o.workdir, job.computerName);
    if (job.stepId === 'clone-repos') {
      mkdirSync(base, { recursive: true });
      const dirs = repoDirectoryNames(job.repos).map((d) => path.join(base, d));
      for (const [i, url] of job.repos.entries()) {
        const dir = dirs[i] as string;
        if (existsSync(path.join(dir, '.git'))) {
          output(`${dir}: already cloned\n`);
          continue;
        }
        output(`$ git clone ${url} ${dir}\n`);
        const r = await this.runRecorded(['git', ...GIT_PROTOCOLS, 'clone', '--progress', '--', url, dir], base, signal, output, {
          ...this.o.env,
          GIT_TERMINAL_PROMPT: '0',
        });
        if (r.exitCode !== 0)
          return { status: 'failed', error: failureMessage(`git clone ${url}`, r.exitCode, r.stderr, r.signal), exitCode: r.exitCode ?? undefined };
      }
      return { status: 'succeeded', exitCode: 0, clonedRepoDirectories: dirs };
    }
    if (job.stepId === 'install-dependencies') {
      const outcome = await installRepositories(job.clonedRepoDirectories, {
        list: async (dir) => (existsSync(dir) ? readdirSync(dir) : []),
        // An install command is a shell line (`python3 -m venv .venv && …`).
        run: (command, dir) => this.runRecorded(['/bin/sh', '-c', command], dir, signal, output, this.o.env),
        output,
        stopped: () => signal.aborted,
      });
      return outcome.ok ? { status: 'succeeded', exitCode: 0 } : { status: 'failed', error: outcome.error, exitCode: outcome.exitCode ?? undefined };
    }
    return { status: 'failed', error: `This host agent does not know the step ${job.stepId}; upgrade orgctl on the host.` };
  }
}
