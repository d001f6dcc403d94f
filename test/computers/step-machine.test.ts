import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apply,
  deriveStatus,
  DONE,
  mayStart,
  nextStep,
  onLeaseExpired,
  planSteps,
  STEP,
  type ProviderType,
  type StepEvent,
  type StepId,
  type StepState,
} from '../../src/computers/step-machine.js';

const stepIds = Object.values(STEP);
const provider = fc.constantFrom<ProviderType>('byom', 'e2b');
const planned = fc
  .record({ provider, repos: fc.nat(2), autoInstallDeps: fc.boolean(), e2bMissing: fc.boolean() })
  .map(({ provider, repos, autoInstallDeps, e2bMissing }) =>
    planSteps(provider, { repos, autoInstallDeps, e2bMissing: e2bMissing ? 'not configured' : undefined }).map((s): StepState => ({
      id: s.stepId,
      status: s.status,
      held: false,
      blocked: s.status === 'skipped' && s.error !== null,
    })),
  );
const event: fc.Arbitrary<StepEvent> = fc.oneof(
  fc.record({ kind: fc.constantFrom('claim' as const, 'succeed' as const, 'fail' as const, 'release' as const), step: fc.constantFrom<StepId>(...stepIds) }),
  fc.record({ kind: fc.constantFrom('hostConnected' as const, 'installDeps' as const, 'moveHost' as const) }),
);
/** Claims of the step that may start, with its outcome: the events a working executor sends. */
const executorEvent: fc.Arbitrary<(steps: StepState[]) => StepEvent | undefined> = fc.constantFrom(
  (steps: StepState[]) => {
    const step = nextStep(steps);
    return step && { kind: 'claim' as const, step };
  },
  (steps: StepState[]) => {
    const held = steps.find((s) => s.held);
    return held && { kind: 'succeed' as const, step: held.id };
  },
  (steps: StepState[]) => {
    const held = steps.find((s) => s.held);
    return held && { kind: 'fail' as const, step: held.id };
  },
);

/** Every state the events reach from the plan, legal events applied and illegal ones refused. */
function run(start: StepState[], events: StepEvent[]): { states: StepState[][]; applied: StepEvent[] } {
  const states = [start];
  const applied: StepEvent[] = [];
  let now = start;
  for (const e of events) {
    const next = apply(now, e);
    if (next === undefined) continue;
    states.push(next);
    applied.push(e);
    now = next;
  }
  return { states, applied };
}

const isDone = (s: StepState) => DONE.includes(s.status);

describe('the step machine', () => {
  it('never reaches an illegal state: a lease only on a running step, one at a time, after every earlier step is done', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 60 }), (start, events) => {
        for (const steps of run(start, events).states) {
          expect(steps.map((s) => s.id)).toEqual(start.map((s) => s.id));
          expect(steps.filter((s) => s.held && s.status !== 'running')).toEqual([]);
          expect(steps.filter((s) => s.held).length).toBeLessThanOrEqual(1);
          const held = steps.findIndex((s) => s.held);
          if (held >= 0) expect(steps.slice(0, held).every(isDone)).toBe(true);
          // connect-host is completed by registration, never run or failed.
          expect(['pending', 'succeeded']).toContain(steps.find((s) => s.id === STEP.connectHost)?.status ?? 'pending');
        }
      }),
    );
  });

  it('keeps a step skipped for good, except the install that install-deps runs on demand and a step blocked by a failure', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 60 }), (start, events) => {
        const skipped = start.filter((s) => s.status === 'skipped' && !s.blocked && s.id !== STEP.installDependencies).map((s) => s.id);
        for (const steps of run(start, events).states) {
          for (const id of skipped) expect(steps.find((s) => s.id === id)?.status).toBe('skipped');
        }
      }),
    );
  });

  it('leaves nothing waiting behind a failed step: the steps after it are settled, skipped and blocked', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 60 }), (start, events) => {
        for (const steps of run(start, events).states) {
          const failed = steps.findIndex((s) => s.status === 'failed');
          if (failed < 0) continue;
          expect(steps.slice(failed + 1).filter((s) => s.status === 'pending' || s.status === 'running')).toEqual([]);
          expect(deriveStatus(steps.map((s) => s.status))).toBe('error');
        }
      }),
    );
  });

  it('refuses an event that does not apply, and never changes the state it is given', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 40 }), event, (start, events, last) => {
        const { states } = run(start, events);
        const before = states[states.length - 1]!;
        const copy = structuredClone(before);
        const after = apply(before, last);
        expect(before).toEqual(copy);
        if (last.kind === 'claim') expect(after !== undefined).toBe(nextStep(before) === last.step);
      }),
    );
  });

  it('runs the steps in order: at most one may start, and only once every earlier step is done', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 60 }), (start, events) => {
        for (const steps of run(start, events).states) {
          const startable = steps.map((_, i) => i).filter((i) => mayStart(steps, i));
          expect(startable.length).toBeLessThanOrEqual(1);
          for (const i of startable) expect(steps.slice(0, i).every(isDone)).toBe(true);
        }
      }),
    );
  });

  it('derives the status: error when a step failed, active only when every step succeeded or was skipped', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 60 }), (start, events) => {
        const { states, applied } = run(start, events);
        states.forEach((steps, i) => {
          const status = deriveStatus(steps.map((s) => s.status));
          expect(status === 'error').toBe(steps.some((s) => s.status === 'failed'));
          expect(status === 'active').toBe(steps.every(isDone));
          if (i > 0 && applied[i - 1]!.kind === 'fail') expect(status).toBe('error');
        });
      }),
    );
  });

  it('brings a computer whose executors succeed to active, one claim per step to run', () => {
    fc.assert(
      fc.property(planned, (start) => {
        fc.pre(!start.some((s) => s.status === 'failed'));
        let steps = apply(start, { kind: 'hostConnected' }) ?? start;
        for (let step = nextStep(steps); step !== undefined; step = nextStep(steps)) {
          steps = apply(apply(steps, { kind: 'claim', step })!, { kind: 'succeed', step })!;
        }
        expect(deriveStatus(steps.map((s) => s.status))).toBe('active');
      }),
    );
  });

  it('install-deps after any failure queues the install and brings the failed steps back, so working executors reach active', () => {
    fc.assert(
      fc.property(planned, fc.array(executorEvent, { maxLength: 20 }), (start, moves) => {
        let steps = apply(start, { kind: 'hostConnected' }) ?? start;
        for (const move of moves) {
          const e = move(steps);
          if (e) steps = apply(steps, e) ?? steps;
        }
        if (steps.some((s) => s.held)) steps = apply(steps, { kind: 'release', step: steps.find((s) => s.held)!.id })!;
        const queued = apply(steps, { kind: 'installDeps' });
        if (queued === undefined) {
          // Refused only while the install step is already running (409 install_running).
          expect(steps.find((s) => s.id === STEP.installDependencies)?.status).toBe('running');
          return;
        }
        expect(queued.find((s) => s.id === STEP.installDependencies)).toMatchObject({ status: 'running', held: false });
        expect(deriveStatus(queued.map((s) => s.status))).toBe('provisioning');
        steps = queued;
        for (let step = nextStep(steps); step !== undefined; step = nextStep(steps)) {
          steps = apply(apply(steps, { kind: 'claim', step })!, { kind: 'succeed', step })!;
        }
        expect(deriveStatus(steps.map((s) => s.status))).toBe('active');
      }),
    );
  });

  it('moving a host is refused while a step runs, and otherwise starts every step that is not skipped over', () => {
    fc.assert(
      fc.property(planned, fc.array(event, { maxLength: 40 }), (start, events) => {
        const { states } = run(start, events);
        const steps = states[states.length - 1]!;
        const moved = apply(steps, { kind: 'moveHost' });
        if (steps.some((s) => s.status === 'running')) expect(moved).toBeUndefined();
        else expect(moved!.map((s) => s.status)).toEqual(steps.map((s) => (s.status === 'skipped' && !s.blocked ? 'skipped' : 'pending')));
      }),
    );
  });

  it('retries an expired e2b lease while attempts are left, and fails everything else', () => {
    fc.assert(
      fc.property(provider, fc.nat(10), fc.integer({ min: 1, max: 10 }), (p, attempts, max) => {
        expect(onLeaseExpired(p, attempts, max)).toBe(p === 'e2b' && attempts < max ? 'release' : 'fail');
      }),
    );
  });
});
