/**
 * The provisioning steps of a computer as a state machine: which steps a provider runs, the
 * states a step may be in, the events that move it, and the rules derived from them (the
 * computer's status, which step runs next). Pure: the stores keep the atomic part in SQL (a
 * claim is one guarded UPDATE), written with the constants and guards defined here, so the legal
 * transitions are read in one place.
 */
export type ProviderType = 'byom' | 'e2b';
export type ComputerStatus = 'provisioning' | 'active' | 'error';

export const STEP = {
  connectHost: 'connect-host',
  createSandbox: 'create-sandbox',
  configureUser: 'configure-user',
  cloneRepos: 'clone-repos',
  installDependencies: 'install-dependencies',
} as const;
export type StepId = (typeof STEP)[keyof typeof STEP];

export const STATUS = {
  pending: 'pending',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skipped',
} as const;
export type StepStatus = (typeof STATUS)[keyof typeof STATUS];

/** The steps of each provider, in the order they run. */
export const PLAN: Record<ProviderType, readonly StepId[]> = {
  byom: [STEP.connectHost, STEP.cloneRepos, STEP.installDependencies],
  e2b: [STEP.createSandbox, STEP.configureUser, STEP.cloneRepos, STEP.installDependencies],
};

/** A step in one of these lets the next one start. */
export const DONE: readonly StepStatus[] = [STATUS.succeeded, STATUS.skipped];

/** connect-host is completed by the host agent registering; every other step is claimed by an executor. */
export const EXECUTED: readonly StepId[] = Object.values(STEP).filter((id) => id !== STEP.connectHost);

/** Failed steps that install-deps runs again before the install, so it has something to work on. */
export const RETRIED_BY_INSTALL: readonly StepId[] = EXECUTED.filter((id) => id !== STEP.installDependencies);

export const E2B_MISSING = 'E2B is not configured: set E2B_API_KEY on the service to create e2b computers.';

const names: Record<StepId, string> = {
  'connect-host': 'Connect the host agent',
  'create-sandbox': 'Create the E2B sandbox',
  'configure-user': 'Configure the remote user',
  'clone-repos': 'Clone the repositories',
  'install-dependencies': 'Install dependencies',
};

export const stepName = (id: string): string => names[id as StepId] ?? id;

/**
 * The reason a step gets when it is settled without running because an earlier step failed: it is
 * skipped with this as its error, so nothing stays pending behind a failure (a follower would wait
 * for it for ever). A skipped step with a reason is blocked, not planned away: install-deps and a
 * move to another host bring it back; a step skipped at planning (nothing to do) has none.
 */
export const blockedReason = (failedStep: string): string => `Not run: the step ${stepName(failedStep)} (${failedStep}) failed.`;

export interface PlannedStep {
  stepId: StepId;
  position: number;
  status: StepStatus;
  error: string | null;
}

/** The steps a new computer starts with: skipped where there is nothing to do. */
export function planSteps(provider: ProviderType, opts: { repos: number; autoInstallDeps: boolean; e2bMissing?: string }): PlannedStep[] {
  return PLAN[provider].map((stepId, position) => {
    if (stepId === STEP.cloneRepos && opts.repos === 0) return { stepId, position, status: STATUS.skipped, error: null };
    if (stepId === STEP.installDependencies && !opts.autoInstallDeps) return { stepId, position, status: STATUS.skipped, error: null };
    // Without E2B configured the first step fails at once, with a message naming the setting,
    // and the steps behind it are settled as blocked.
    if (stepId === STEP.createSandbox && opts.e2bMissing) return { stepId, position, status: STATUS.failed, error: opts.e2bMissing };
    if (opts.e2bMissing && provider === 'e2b') return { stepId, position, status: STATUS.skipped, error: blockedReason(STEP.createSandbox) };
    return { stepId, position, status: STATUS.pending, error: null };
  });
}

/** A planned step has ended before anything ran (skipped, or failed at creation): it gets its times at once. */
export const endedAtPlanning = (status: StepStatus): boolean => status === STATUS.failed || status === STATUS.skipped;

/** error if any step failed, else provisioning while any is pending or running, else active. */
export function deriveStatus(statuses: readonly StepStatus[]): ComputerStatus {
  if (statuses.includes(STATUS.failed)) return 'error';
  if (statuses.some((s) => s === STATUS.pending || s === STATUS.running)) return 'provisioning';
  return 'active';
}

/**
 * One step as the machine sees it: `held` says an executor holds its lease (only while running);
 * `blocked` marks a step skipped because an earlier one failed (in the database: skipped with an error).
 */
export interface StepState {
  id: StepId;
  status: StepStatus;
  held: boolean;
  blocked?: boolean;
}

/**
 * What can happen to a computer's steps. `claim`, `succeed`, `fail` and `release` name a step;
 * the others act on the computer.
 * - claim: an executor takes the step under a lease.
 * - succeed / fail: the holder reports the outcome; fail is also how the engine settles a lost
 *   holder or a queued byom step whose agent is gone. A failure settles every step behind it that
 *   waits (pending or queued): skipped and blocked, so no step is left waiting on one that failed.
 * - release: the lease ends without an outcome (the engine stopped, or the lease expired with
 *   attempts left); the step stays running, queued for the next executor.
 * - hostConnected: the host agent registered (connect-host succeeds).
 * - installDeps: the install step is queued again with a new session.
 * - moveHost: the byom computer is bound to another host and starts over there.
 */
export type StepEvent = { kind: 'claim' | 'succeed' | 'fail' | 'release'; step: StepId } | { kind: 'hostConnected' | 'installDeps' | 'moveHost' };

const isDone = (s: StepState) => DONE.includes(s.status);
/** Skipped because an earlier step failed: brought back by install-deps and by a move to another host. */
export const isBlocked = (s: Pick<StepState, 'status' | 'blocked'>): boolean => s.status === STATUS.skipped && s.blocked === true;
/** Running without a holder: queued by install-deps, or released. */
export const isQueued = (s: StepState): boolean => s.status === STATUS.running && !s.held;

/** A step may start when it is pending or queued, an executor runs it, and every earlier step is done. */
export function mayStart(steps: readonly StepState[], index: number): boolean {
  const s = steps[index];
  if (!s || !EXECUTED.includes(s.id)) return false;
  if (s.status !== STATUS.pending && !isQueued(s)) return false;
  return steps.slice(0, index).every(isDone);
}

/** The one step an executor may claim now, if any (steps run in order, so there is at most one). */
export function nextStep(steps: readonly StepState[]): StepId | undefined {
  return steps.find((_, i) => mayStart(steps, i))?.id;
}

/** An expired lease: an e2b step is retried while attempts are left; anything else fails. */
export function onLeaseExpired(provider: ProviderType, attempts: number, maxAttempts: number): 'release' | 'fail' {
  return provider === 'e2b' && attempts < maxAttempts ? 'release' : 'fail';
}

/** A claimed install step gets a new session when it starts fresh, and keeps the one install-deps made. */
export const needsNewSession = (was: StepStatus, sessionId: string | null): boolean => was === STATUS.pending || sessionId === null;

/**
 * The steps after `event`, or undefined when the event is not allowed in this state (the SQL
 * guard of the same transition matches no row). Never mutates its input.
 */
export function apply(steps: readonly StepState[], event: StepEvent): StepState[] | undefined {
  const next = steps.map((s) => ({ ...s }));
  switch (event.kind) {
    case 'claim': {
      const i = next.findIndex((s) => s.id === event.step);
      if (!mayStart(next, i)) return undefined;
      next[i] = { ...next[i]!, status: STATUS.running, held: true };
      return next;
    }
    case 'succeed':
    case 'release': {
      const s = next.find((x) => x.id === event.step);
      if (!s || s.status !== STATUS.running || !s.held) return undefined;
      Object.assign(s, event.kind === 'succeed' ? { status: STATUS.succeeded, held: false } : { held: false });
      return next;
    }
    case 'fail': {
      const i = next.findIndex((s) => s.id === event.step);
      if (next[i]?.status !== STATUS.running) return undefined;
      next[i] = { ...next[i]!, status: STATUS.failed, held: false };
      // Steps waiting behind a failed one can no longer run: settled, skipped with the reason.
      for (const s of next.slice(i + 1)) if (s.status === STATUS.pending || isQueued(s)) Object.assign(s, { status: STATUS.skipped, blocked: true });
      return next;
    }
    case 'hostConnected': {
      const s = next.find((x) => x.id === STEP.connectHost);
      if (!s || s.status === STATUS.succeeded) return undefined;
      Object.assign(s, { status: STATUS.succeeded, held: false });
      return next;
    }
    case 'installDeps': {
      const install = next.find((x) => x.id === STEP.installDependencies);
      if (!install || install.status === STATUS.running) return undefined;
      Object.assign(install, { status: STATUS.running, held: false, blocked: false });
      for (const s of next) {
        if ((s.status === STATUS.failed || isBlocked(s)) && RETRIED_BY_INSTALL.includes(s.id)) Object.assign(s, { status: STATUS.pending, blocked: false });
      }
      return next;
    }
    case 'moveHost': {
      if (next.some((s) => s.status === STATUS.running)) return undefined;
      for (const s of next) if (s.status !== STATUS.skipped || isBlocked(s)) Object.assign(s, { status: STATUS.pending, held: false, blocked: false });
      return next;
    }
  }
}
