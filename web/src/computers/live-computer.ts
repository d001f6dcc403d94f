import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiFailure } from '../api.js';
import { computerQuery, stepLogQuery, type Computer, type Step } from './queries.js';

export type { Computer, Step, StepLog } from './queries.js';

/** One reading a second at most per open page, of the computer and of the log of the step followed. */
export const ROUND_MS = 1000;

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

/** A computer that is gone or not the caller's to see will not come back by asking again. */
const final = (error: unknown) => error instanceof ApiFailure && (error.status === 404 || error.status === 403 || error.status === 401);

/** Polls while a step is pending or running, and stops once the computer has settled or is refused. */
const whileLive = (state: { data?: Computer; error: unknown }) => (state.data !== undefined && isLive(state.data) && !final(state.error) ? ROUND_MS : false);

/**
 * A computer and the log of one of its steps, kept current by polling the public endpoints (as
 * `orgctl computers install-deps --follow` does): every second while a step is pending or running,
 * and not once the computer has settled. `restart` follows again, after an action of the page.
 */
export function useLiveComputer(computerId: string, wantedStep: string | null) {
  const queryClient = useQueryClient();
  const computer = useQuery({ ...computerQuery(computerId), refetchInterval: (q) => whileLive(q.state) });
  const step = computer.data ? followedStep(computer.data, wantedStep) : undefined;
  const log = useQuery({
    ...stepLogQuery(computerId, step),
    // A step's log changes only while it runs.
    refetchInterval: step?.status === 'running' ? ROUND_MS : false,
    // The log on screen stays while the next key (the step has moved on) is read.
    placeholderData: keepPreviousData,
  });
  const restart = useCallback(
    (c?: Computer) => {
      const { queryKey } = computerQuery(computerId);
      if (c) queryClient.setQueryData(queryKey, c);
      void queryClient.invalidateQueries({ queryKey });
    },
    [queryClient, computerId],
  );
  return { computer: computer.data, log: log.data, error: computer.error ?? log.error, restart };
}
