import pRetry from 'p-retry';

export interface RetryPolicy {
  /** The wait after the first failure, doubled after each further one up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Whether a failure is worth another try; any other is thrown at once. */
  retryable: (e: unknown) => boolean;
  /** Ends the waiting between tries: the call then gives up and answers `stopped`. */
  signal?: AbortSignal;
  /** Gives up (throwing the last failure) once this long has passed since the first try. */
  withinMs?: number;
  /** Told of each failure that will be retried, before the wait. */
  onRetry?: (e: unknown, delayMs: number) => void;
}

export type Retried<T> = { value: T } | 'stopped';

/**
 * The one way to retry in orgctl (p-retry, exponential without jitter). A value that arrives
 * while the signal aborts is still returned: the work it stands for (a claimed step, say) was
 * done and must not be dropped.
 */
export async function retry<T>(fn: () => Promise<T>, p: RetryPolicy): Promise<Retried<T>> {
  let result: { value: T } | undefined;
  const delayAfter = (failures: number) => Math.min(p.firstDelayMs * 2 ** (failures - 1), p.maxDelayMs);
  try {
    await pRetry(
      async () => {
        result = { value: await fn() };
      },
      {
        retries: Number.POSITIVE_INFINITY,
        factor: 2,
        minTimeout: p.firstDelayMs,
        maxTimeout: p.maxDelayMs,
        maxRetryTime: p.withinMs,
        signal: p.signal,
        shouldRetry: ({ error }) => p.retryable(error),
        onFailedAttempt: ({ error, retriesConsumed }) => {
          if (p.retryable(error) && !p.signal?.aborted) p.onRetry?.(error, delayAfter(retriesConsumed + 1));
        },
      },
    );
  } catch (e) {
    if (result) return result;
    if (p.signal?.aborted) return 'stopped';
    throw e;
  }
  return result!;
}
