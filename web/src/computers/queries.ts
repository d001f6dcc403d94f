import { queryOptions, skipToken } from '@tanstack/react-query';
import { api, call, type Body } from '../api.js';

export type Computer = Body<'/api/v0/computers/{computerId}', 'get'>;
export type Step = Computer['provisioningSteps'][number];

export interface StepLog {
  stepId: string;
  log: string;
  truncated: boolean;
  /** The install session's own status and exit code, for the install step. */
  session?: { id: string; status: string; exitCode: number | null };
}

/** Every read of computers (the list, one computer, a step's log): a change refreshes them all. */
export const computersKey = ['computers'] as const;

/** The computers the caller may see (a member: their own). */
export const computersQuery = queryOptions({ queryKey: computersKey, queryFn: () => call(api.GET('/api/v0/computers')) });

export const computerQuery = (computerId: string) =>
  queryOptions({
    queryKey: [...computersKey, computerId],
    queryFn: () => call(api.GET('/api/v0/computers/{computerId}', { params: { path: { computerId } } })),
  });

/**
 * The log of a step: the install session's log for the install step, else the step's own. The
 * step's status and session are in the key, so a step that has just ended (or a new install
 * session) is read once more, which catches its last lines. No step: nothing to read.
 */
export const stepLogQuery = (computerId: string, step: Step | undefined) =>
  queryOptions({
    queryKey: [...computersKey, computerId, 'log', step?.id ?? null, step?.status ?? null, step?.installSessionId ?? null],
    queryFn: step ? () => readLog(computerId, step) : skipToken,
  });

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
