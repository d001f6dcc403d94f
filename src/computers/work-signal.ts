import type { Clock } from '../core/clock.js';

/**
 * Wakes waiters in this process as soon as work is queued for a computer, so a host agent's held
 * long poll answers at once. Work queued by another process is found by the waiters' database
 * poll instead; this is only the fast path.
 */
export class WorkSignal {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** `clock` times the waits: a test's clock passes a long poll's wait without sleeping. */
  constructor(private readonly clock: Clock) {}

  notify(computerId: string): void {
    const set = this.waiters.get(computerId);
    if (!set) return;
    this.waiters.delete(computerId);
    for (const wake of set) wake();
  }

  /** Resolves when `computerId` is notified, after `ms`, or when `signal` aborts, whichever comes first. */
  wait(computerId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(computerId) ?? new Set();
      this.waiters.set(computerId, set);
      const done = () => {
        timer.cancel();
        set.delete(done);
        if (set.size === 0 && this.waiters.get(computerId) === set) this.waiters.delete(computerId);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.clock.timeout(done, ms);
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
