import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiFailure, call, type Body } from '../api.js';

export type Computer = Body<'/api/v0/computers/{computerId}', 'get'>;
export type Step = Computer['provisioningSteps'][number];

/** One round at most every second per open page: the computer, then the log of the step followed. */
export const ROUND_MS = 1000;

export interface StepLog {
  stepId: string;
  log: string;
  truncated: boolean;
  /** The install session's own status and exit code, for the install step. */
  session?: { id: string; status: string; exitCode: number | null };
}

export const isLive = (c: Computer): boolean => c.provisioningSteps.some((s) => s.status === 'pending' || s.status === 'running');

/** The step whose log is shown: the one asked for, else the running one, else the last one that ran. */
export function followedStep(c: Computer, wanted: string | null): Step | undefined {
  const steps = c.provisioningSteps;
  return (
    steps.find((s) => s.id === wanted) ??
    steps.find((s) => s.status === 'running') ??
    [...steps].reverse().find((s) => s.startedAt !== undefined || s.installSessionId !== undefined)
  );
}

async function readLog(computerId: string, step: Step): Promise<StepLog> {
  if (step.installSessionId) {
    const s = await call(
      api.GET('/api/v0/computers/{computerId}/install-sessions/{sessionId}', { params: { path: { computerId, sessionId: step.installSessionId } } }),
    );
    return { stepId: step.id, log: s.log, truncated: s.logTruncated, session: { id: s.id, status: s.status, exitCode: s.exitCode } };
  }
  const d = await call(api.GET('/api/v0/computers/{computerId}/provisioning-steps/{stepId}', { params: { path: { computerId, stepId: step.id } } }));
  return { stepId: step.id, log: d.log, truncated: false };
}

/**
 * A computer and the log of one of its steps, kept current by polling the public endpoints (as
 * `orgctl computers install-deps --follow` does): a round a second while a step is pending or running, and
 * none once the computer has settled. `restart` starts following again, after an action of the page.
 */
export function useLiveComputer(computerId: string, wantedStep: string | null) {
  const [computer, setComputer] = useState<Computer>();
  const [log, setLog] = useState<StepLog>();
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);
  const seen = useRef(new Map<string, string>());

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const round = async () => {
      const started = Date.now();
      let again: boolean;
      try {
        const c = await call(api.GET('/api/v0/computers/{computerId}', { params: { path: { computerId } } }));
        const step = followedStep(c, wantedStep);
        // A step's log changes only while it runs; one more read when it has just ended (or on the
        // first round) catches its last lines.
        const changed = step !== undefined && seen.current.get(step.id) !== `${step.status}:${step.installSessionId ?? ''}`;
        const next = step && (first || changed || step.status === 'running') ? await readLog(computerId, step) : undefined;
        if (stopped) return;
        setComputer(c);
        if (next) setLog(next);
        setError(undefined);
        if (step) seen.current.set(step.id, `${step.status}:${step.installSessionId ?? ''}`);
        again = isLive(c);
      } catch (e) {
        if (stopped) return;
        setError(e);
        again = !(e instanceof ApiFailure && (e.status === 404 || e.status === 403 || e.status === 401));
      }
      first = false;
      if (again && !stopped) timer = setTimeout(() => void round(), Math.max(0, ROUND_MS - (Date.now() - started)));
    };
    void round();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [computerId, wantedStep, generation]);

  const restart = useCallback((c?: Computer) => {
    if (c) setComputer(c);
    setGeneration((g) => g + 1);
  }, []);
  return { computer, log, error, restart };
}
