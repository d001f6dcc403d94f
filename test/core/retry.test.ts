import { describe, expect, it } from 'vitest';
import { retry } from '../../src/core/retry.js';

const transient = new Error('unreachable');
const fatal = new Error('refused for good');
const retryable = (e: unknown) => e === transient;

/** A function failing with the given errors in turn, then answering `value`. */
function failing<T>(errors: Error[], value: T) {
  let calls = 0;
  const fn = async () => {
    calls++;
    const e = errors.shift();
    if (e) throw e;
    return value;
  };
  return { fn, calls: () => calls };
}

describe('retry, the one way to retry', () => {
  it('retries what is retryable, doubling the wait up to the cap, and answers the value', async () => {
    const f = failing([transient, transient, transient, transient], 'ok');
    const delays: number[] = [];
    expect(await retry(f.fn, { firstDelayMs: 5, maxDelayMs: 20, retryable, onRetry: (_e, d) => delays.push(d) })).toEqual({ value: 'ok' });
    expect(delays).toEqual([5, 10, 20, 20]);
    expect(f.calls()).toBe(5);
  });

  it('throws what is not retryable at once', async () => {
    const f = failing([transient, fatal], 'ok');
    await expect(retry(f.fn, { firstDelayMs: 1, maxDelayMs: 1, retryable })).rejects.toBe(fatal);
    expect(f.calls()).toBe(2);
  });

  it('a stop ends the waiting: the answer is stopped, without another try', async () => {
    const stop = new AbortController();
    const f = failing([transient, transient], 'ok');
    // The stop comes once the minute's wait has begun (the turn after onRetry); a wait the stop did
    // not end would outlast the test's timeout.
    const onRetry = () => setImmediate(() => stop.abort());
    expect(await retry(f.fn, { firstDelayMs: 60_000, maxDelayMs: 60_000, retryable, signal: stop.signal, onRetry })).toBe('stopped');
    expect(f.calls()).toBe(1);
  });

  it('a value that arrives while stopping is still answered, so its work is not dropped', async () => {
    const stop = new AbortController();
    const fn = async () => {
      stop.abort();
      return 'claimed';
    };
    expect(await retry(fn, { firstDelayMs: 1, maxDelayMs: 1, retryable, signal: stop.signal })).toEqual({ value: 'claimed' });
  });

  it('gives up with the last failure once its time is spent', async () => {
    const f = failing(
      Array.from({ length: 1000 }, () => transient),
      'never',
    );
    await expect(retry(f.fn, { firstDelayMs: 10, maxDelayMs: 10, retryable, withinMs: 100 })).rejects.toBe(transient);
    expect(f.calls()).toBeGreaterThan(1);
    expect(f.calls()).toBeLessThan(1000);
  });
});
