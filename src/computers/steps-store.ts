import { randomUUID } from 'node:crypto';
import type { Queryable } from '../core/db/db.js';
import { blockedReason, DONE, EXECUTED, needsNewSession, RETRIED_BY_INSTALL, STATUS, STEP, type ProviderType, type StepStatus } from './step-machine.js';
import type { StepRow } from './store.js';

/** A step as its lease holder names it. */
export type HeldStep = Pick<StepRow, 'computer_id' | 'step_id' | 'install_session_id' | 'lease_owner'>;

export interface ClaimedStep extends StepRow {
  provider: ProviderType;
}

export interface SessionRow {
  id: string;
  computer_id: string;
  status: 'running' | 'succeeded' | 'failed';
  exit_code: number | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  log: string;
  log_truncated: boolean;
}

export interface ExpiredLease {
  computer_id: string;
  step_id: string;
  provider: ProviderType;
  attempts: number;
  heartbeat_at: Date | null;
}

/** A constant of the step machine as an SQL literal (its values are plain words, never input). */
const lit = (v: string) => `'${v}'`;
const list = (vs: readonly string[]) => vs.map(lit).join(', ');
const { pending, running, succeeded, failed, skipped } = STATUS;
const INSTALL = STEP.installDependencies;
/** mayStart's own-state half in SQL (the machine's isQueued or pending); the order half is the NOT EXISTS of claim. */
const startable = (s: string) => `(${s}.status = ${lit(pending)} OR (${s}.status = ${lit(running)} AND ${s}.lease_owner IS NULL))`;
/** The machine's isBlocked in SQL: skipped with a reason, because an earlier step failed. */
const blocked = `(status = ${lit(skipped)} AND error IS NOT NULL)`;
/** `now` plus a number of milliseconds, both parameters. */
const after = (now: string, ms: string) => `(${now}::timestamptz + ${ms}::int * interval '1 millisecond')`;

/**
 * SQL of the provisioning jobs, the atomic side of the step machine (step-machine.ts): each
 * transition is one guarded statement whose WHERE is the machine's rule, so of concurrent callers
 * exactly one matches. A step is claimable when it is `pending`, or `running` without a lease
 * holder (queued by install-deps, or released by an engine that stopped), and every earlier step of
 * its computer is done. Claims lock with FOR UPDATE SKIP LOCKED so any number of executors
 * (engines in several `orgctl serve` processes, host agents) never take one twice. Every time
 * written or compared is the caller's clock (`now`), never the database's.
 */
export const jobsStore = {
  async claim(
    db: Queryable,
    where: { provider: ProviderType; computerId?: string; limit: number },
    leasePrefix: string,
    leaseMs: number,
    now: Date,
  ): Promise<ClaimedStep[]> {
    const rows = await db.query<ClaimedStep & { was: StepStatus }>(
      `WITH candidate AS (
         SELECT s.computer_id, s.step_id, s.status AS was FROM computer_steps s JOIN computers c ON c.id = s.computer_id
         WHERE c.provider = $1 AND ($2::uuid IS NULL OR s.computer_id = $2::uuid) AND s.step_id IN (${list(EXECUTED)})
           AND ${startable('s')}
           AND NOT EXISTS (SELECT 1 FROM computer_steps p WHERE p.computer_id = s.computer_id AND p.position < s.position
                           AND p.status NOT IN (${list(DONE)}))
         ORDER BY s.started_at NULLS LAST, s.computer_id LIMIT $3
         FOR UPDATE OF s SKIP LOCKED)
       UPDATE computer_steps s SET status = ${lit(running)}, lease_owner = $4 || gen_random_uuid()::text,
         lease_expires_at = ${after('$5', '$6')}, heartbeat_at = $5, attempts = s.attempts + 1, error = NULL, completed_at = NULL,
         started_at = CASE WHEN s.status = ${lit(pending)} THEN $5 ELSE COALESCE(s.started_at, $5) END,
         log = CASE WHEN s.status = ${lit(pending)} THEN '' ELSE s.log END
       FROM candidate WHERE s.computer_id = candidate.computer_id AND s.step_id = candidate.step_id
         AND ${startable('s')}
       RETURNING s.computer_id, s.step_id, s.position, s.status, s.error, s.started_at, s.completed_at, s.install_session_id,
         s.attempts, s.lease_owner, s.lease_expires_at, candidate.was, $1::text AS provider`,
      [where.provider, where.computerId ?? null, where.limit, leasePrefix, now, leaseMs],
    );
    for (const r of rows) {
      if (r.step_id !== INSTALL) continue;
      if (needsNewSession(r.was, r.install_session_id)) {
        r.install_session_id = randomUUID();
        await db.query(`INSERT INTO install_sessions (id, computer_id, status, created_at, started_at) VALUES ($1, $2, ${lit(running)}, $3, $3)`, [
          r.install_session_id,
          r.computer_id,
          now,
        ]);
        await db.query(`UPDATE computer_steps SET install_session_id = $3 WHERE computer_id = $1 AND step_id = $2`, [
          r.computer_id,
          r.step_id,
          r.install_session_id,
        ]);
      } else {
        await db.query(`UPDATE install_sessions SET started_at = COALESCE(started_at, $2) WHERE id = $1`, [r.install_session_id, now]);
      }
    }
    return rows.map(({ was: _was, ...r }) => r);
  },

  /** The machine's hostConnected: connect-host of a byom computer succeeds when its host agent registers. */
  async hostConnected(db: Queryable, computerId: string, now: Date): Promise<void> {
    await db.query(
      `UPDATE computer_steps SET status = ${lit(succeeded)}, error = NULL, started_at = COALESCE(started_at, $2), completed_at = $2
       WHERE computer_id = $1 AND step_id = ${lit(STEP.connectHost)} AND status <> ${lit(succeeded)}`,
      [computerId, now],
    );
  },

  /**
   * The machine's moveHost: a byom computer moved to another host, so every step that is not
   * skipped (or is skipped only because an earlier one failed) starts over there. False (nothing
   * changed) while a step is running on the current host.
   */
  async restartOnNewHost(db: Queryable, computerId: string): Promise<boolean> {
    const busy = await db.query(`SELECT 1 FROM computer_steps WHERE computer_id = $1 AND status = ${lit(running)} FOR UPDATE`, [computerId]);
    if (busy.length > 0) return false;
    await db.query(
      `UPDATE computer_steps SET status = ${lit(pending)}, error = NULL, started_at = NULL, completed_at = NULL, install_session_id = NULL,
         attempts = 0, lease_owner = NULL, lease_expires_at = NULL, log = ''
       WHERE computer_id = $1 AND (status <> ${lit(skipped)} OR ${blocked})`,
      [computerId],
    );
    await db.query(`UPDATE computers SET hostname = NULL, cloned_repo_directories = NULL, agent_seen_at = NULL WHERE id = $1`, [computerId]);
    return true;
  },

  /**
   * Extends a lease; undefined when the caller no longer holds it (expired and taken over, or
   * finished). Returns the held step as appendLog needs it.
   */
  async heartbeat(db: Queryable, computerId: string, stepId: string, leaseOwner: string, leaseMs: number, now: Date) {
    const rows = await db.query<{ lease_expires_at: Date } & HeldStep>(
      `UPDATE computer_steps SET lease_expires_at = ${after('$4', '$5')}, heartbeat_at = $4
       WHERE computer_id = $1 AND step_id = $2 AND lease_owner = $3 AND status = ${lit(running)}
       RETURNING lease_expires_at, computer_id, step_id, install_session_id, lease_owner`,
      [computerId, stepId, leaseOwner, now, leaseMs],
    );
    return rows[0];
  },

  /** Locks a step held by `leaseOwner`; undefined when the lease is no longer the caller's. */
  async lockHeld(db: Queryable, computerId: string, stepId: string, leaseOwner: string): Promise<StepRow | undefined> {
    return (
      await db.query<StepRow>(
        `SELECT * FROM computer_steps WHERE computer_id = $1 AND step_id = $2 AND lease_owner = $3 AND status = ${lit(running)} FOR UPDATE`,
        [computerId, stepId, leaseOwner],
      )
    )[0];
  },

  /**
   * Adds an executor's output to the step's log (an install session's, for install-dependencies),
   * only while the step is still running under the executor's lease: a stale executor's last
   * output never lands in the log of a step another one holds.
   */
  async appendLog(db: Queryable, step: HeldStep, chunk: string, max: number): Promise<void> {
    if (chunk === '') return;
    const held = `EXISTS (SELECT 1 FROM computer_steps WHERE computer_id = $1 AND step_id = $2 AND lease_owner = $3 AND status = ${lit(running)})`;
    const owner = [step.computer_id, step.step_id, step.lease_owner];
    if (step.step_id === INSTALL && step.install_session_id) {
      await db.query(
        `UPDATE install_sessions SET log_truncated = log_truncated OR length(log) + length($5) > $6, log = right(log || $5, $6) WHERE id = $4 AND ${held}`,
        [...owner, step.install_session_id, chunk, max],
      );
    } else {
      await db.query(
        `UPDATE computer_steps SET log = right(log || $4, $5) WHERE computer_id = $1 AND step_id = $2 AND lease_owner = $3 AND status = ${lit(running)}`,
        [...owner, chunk, max],
      );
    }
  },

  /** The machine's succeed or fail, on a step the caller has locked (lockHeld, lockExpired, lockOrphanedQueued). */
  async finish(
    db: Queryable,
    step: StepRow,
    outcome: { status: typeof succeeded | typeof failed; error: string | null; exitCode: number | null },
    now: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE computer_steps SET status = $3, error = $4, completed_at = $5, lease_owner = NULL, lease_expires_at = NULL
       WHERE computer_id = $1 AND step_id = $2`,
      [step.computer_id, step.step_id, outcome.status, outcome.error, now],
    );
    if (step.install_session_id) {
      await db.query(
        `UPDATE install_sessions SET status = $2, exit_code = $3, error = $4, ended_at = $5, started_at = COALESCE(started_at, $5)
         WHERE id = $1 AND status = ${lit(running)}`,
        [step.install_session_id, outcome.status, outcome.exitCode, outcome.error, now],
      );
    }
    if (outcome.status === failed) await this.cancelAfter(db, step.computer_id, step.position, step.step_id, now);
  },

  /**
   * Steps waiting behind a failed one (pending, or queued by install-deps) can no longer run: they
   * are settled, skipped with the reason, so a follower sees nothing left to wait for; the
   * sessions of queued installs end failed.
   */
  async cancelAfter(db: Queryable, computerId: string, position: number, failedStep: string, now: Date): Promise<void> {
    const waitingAfter = `computer_id = $1 AND position > $2 AND (status = ${lit(pending)} OR (status = ${lit(running)} AND lease_owner IS NULL))`;
    const waiting = await db.query<{ install_session_id: string | null }>(
      `SELECT install_session_id FROM computer_steps WHERE ${waitingAfter} AND status = ${lit(running)} FOR UPDATE`,
      [computerId, position],
    );
    const reason = blockedReason(failedStep);
    await db.query(
      `UPDATE computer_steps SET status = ${lit(skipped)}, error = $3, started_at = NULL, completed_at = $4, install_session_id = NULL,
         lease_owner = NULL, lease_expires_at = NULL
       WHERE ${waitingAfter}`,
      [computerId, position, reason, now],
    );
    const ids = waiting.map((q) => q.install_session_id).filter((id): id is string => id !== null);
    if (ids.length > 0) {
      await db.query(`UPDATE install_sessions SET status = ${lit(failed)}, error = $2, ended_at = $3 WHERE id = ANY($1::uuid[]) AND status = ${lit(running)}`, [
        ids,
        reason,
        now,
      ]);
    }
  },

  /** The machine's release: the lease ends without an outcome, and the step is queued again for the next executor. */
  async release(db: Queryable, computerId: string, stepId: string, leaseOwner?: string): Promise<void> {
    await db.query(
      `UPDATE computer_steps SET lease_owner = NULL, lease_expires_at = NULL
       WHERE computer_id = $1 AND step_id = $2 AND status = ${lit(running)} AND ($3::text IS NULL OR lease_owner = $3)`,
      [computerId, stepId, leaseOwner ?? null],
    );
  },

  async lockExpired(db: Queryable, limit: number, now: Date): Promise<(ExpiredLease & StepRow)[]> {
    return db.query(
      `SELECT s.*, c.provider FROM computer_steps s JOIN computers c ON c.id = s.computer_id
       WHERE s.status = ${lit(running)} AND s.lease_owner IS NOT NULL AND s.lease_expires_at < $2
       ORDER BY s.lease_expires_at LIMIT $1 FOR UPDATE OF s SKIP LOCKED`,
      [limit, now],
    );
  },

  /** Queued byom steps whose computer has had no agent contact for `timeoutMs` (and waited at least that long). */
  async lockOrphanedQueued(db: Queryable, timeoutMs: number, limit: number, now: Date): Promise<(StepRow & { agent_seen_at: Date | null })[]> {
    const since = new Date(now.getTime() - timeoutMs);
    return db.query(
      `SELECT s.*, c.agent_seen_at FROM computer_steps s JOIN computers c ON c.id = s.computer_id
       WHERE c.provider = 'byom' AND s.status = ${lit(running)} AND s.lease_owner IS NULL
         AND s.started_at < $2 AND (c.agent_seen_at IS NULL OR c.agent_seen_at < $2)
       LIMIT $1 FOR UPDATE OF s SKIP LOCKED`,
      [limit, since],
    );
  },

  /**
   * The machine's installDeps. Starts a session, or says which one is running (null: an install
   * step run without one, as at provisioning). The install step becomes running (queued) with a new
   * session only if it is not running now: the conditional UPDATE is the gate, of concurrent
   * requests exactly one matches the row; the partial unique index on running sessions backs it up.
   */
  async startInstall(
    db: Queryable,
    computerId: string,
    sessionId: string,
    now: Date,
  ): Promise<{ started: true } | { started: false; runningSessionId: string | null }> {
    const rows = await db.query(
      `UPDATE computer_steps SET status = ${lit(running)}, install_session_id = $2, error = NULL, started_at = $3, completed_at = NULL,
         lease_owner = NULL, lease_expires_at = NULL, attempts = 0
       WHERE computer_id = $1 AND step_id = ${lit(INSTALL)} AND status <> ${lit(running)} RETURNING 1`,
      [computerId, sessionId, now],
    );
    if (rows.length === 0) {
      const [busy] = await db.query<{ install_session_id: string | null }>(
        `SELECT install_session_id FROM computer_steps WHERE computer_id = $1 AND step_id = ${lit(INSTALL)}`,
        [computerId],
      );
      return { started: false, runningSessionId: busy?.install_session_id ?? null };
    }
    await db.query(`INSERT INTO install_sessions (id, computer_id, status, created_at) VALUES ($1, $2, ${lit(running)}, $3)`, [sessionId, computerId, now]);
    // Failed earlier steps (and those blocked behind them) run again first, so the install has something to work on.
    await db.query(
      `UPDATE computer_steps SET status = ${lit(pending)}, error = NULL, started_at = NULL, completed_at = NULL, attempts = 0
       WHERE computer_id = $1 AND (status = ${lit(failed)} OR ${blocked}) AND step_id IN (${list(RETRIED_BY_INSTALL)})`,
      [computerId],
    );
    return { started: true };
  },

  async session(db: Queryable, computerId: string, sessionId: string): Promise<SessionRow | undefined> {
    return (await db.query<SessionRow>(`SELECT * FROM install_sessions WHERE computer_id = $1 AND id = $2`, [computerId, sessionId]))[0];
  },
};
