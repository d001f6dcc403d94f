/**
 * The one source of time on the server: what time it is, and when to act. Services take a Clock
 * and pass its time into SQL as a parameter (`$n::timestamptz`) wherever the code also reasons
 * about the time it stores or compares (leases, heartbeats, expiries), so code and database never
 * disagree on what "now" is; and they wait through it (the provisioning engine's ticks and
 * heartbeats, a held long poll), so tests move time forward instead of sleeping.
 *
 * This module holds the only raw timers of src/ (lint: no-restricted-globals). A timer that must
 * follow the real time whatever the service's clock says (a socket's, a process's, the event-loop
 * sampler's) uses `systemClock` by name.
 */
export interface Clock {
  now(): Date;
  /** Calls `fn` once, `ms` from now. */
  timeout(fn: () => void, ms: number, options?: TimerOptions): Timer;
  /** Calls `fn` every `ms` (at least 1) until cancelled. */
  interval(fn: () => void, ms: number, options?: TimerOptions): Timer;
  /** Resolves `ms` from now, or as soon as `options.signal` aborts (at once if it has); never rejects. */
  sleep(ms: number, options?: SleepOptions): Promise<void>;
  /** A signal that aborts `ms` from now with a TimeoutError, as AbortSignal.timeout; it keeps no process alive. */
  abortAfter(ms: number): AbortSignal;
}

export interface Timer {
  /** Stops the timer: its function is not called again. Harmless once fired or cancelled. */
  cancel(): void;
}

export interface TimerOptions {
  /** Whether the pending timer keeps the process alive (Node's ref and unref); true unless false. The test clock has no process to keep. */
  keepAlive?: boolean;
}

export interface SleepOptions extends TimerOptions {
  signal?: AbortSignal;
}

/** Milliseconds since the epoch by `clock`: for code that works in numbers (caches, tokens). */
export const millisOf = (clock: Clock): number => clock.now().getTime();

/** `sleep` for any clock, from its `timeout`. */
function sleepOn(clock: Clock, ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal, keepAlive } = options;
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.timeout(done, ms, { keepAlive });
    signal?.addEventListener('abort', done, { once: true });
  });
}

const realTimer = (t: NodeJS.Timeout, options: TimerOptions | undefined, clear: (t: NodeJS.Timeout) => void): Timer => {
  if (options?.keepAlive === false) t.unref();
  return { cancel: () => clear(t) };
};

/** The real time, and Node's timers. */
export const systemClock: Clock = {
  now: () => new Date(),
  timeout: (fn, ms, options) => realTimer(setTimeout(fn, ms), options, clearTimeout),
  interval: (fn, ms, options) => realTimer(setInterval(fn, Math.max(1, ms)), options, clearInterval),
  sleep: (ms, options) => sleepOn(systemClock, ms, options),
  abortAfter: (ms) => AbortSignal.timeout(ms),
};

interface Scheduled {
  readonly seq: number;
  at: number;
  readonly every: number | undefined;
  readonly fn: () => void;
}

/**
 * A clock that stands still until advanced: lets a test pass an hour in no time. Its timers fire
 * only inside `advance`, in the order of their times (then of their scheduling), each with the
 * clock set to its own time; a timer scheduled by one that fires, due within the advance, fires
 * in the same advance. What a timer's function starts asynchronously (a query, a request) runs
 * afterwards, in real time: a test that waits for its effect polls for it (test/helpers/wait.ts),
 * moving the clock on as it does when more timers are to fire.
 */
export class TestClock implements Clock {
  private ms: number;
  private seq = 0;
  private readonly timers = new Set<Scheduled>();

  constructor(start: Date | number = Date.now()) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  timeout(fn: () => void, ms: number): Timer {
    return this.schedule(fn, ms, undefined);
  }

  interval(fn: () => void, ms: number): Timer {
    return this.schedule(fn, ms, Math.max(1, ms));
  }

  sleep(ms: number, options?: SleepOptions): Promise<void> {
    return sleepOn(this, ms, options);
  }

  abortAfter(ms: number): AbortSignal {
    const abort = new AbortController();
    this.timeout(() => abort.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return abort.signal;
  }

  /** How many timers wait to fire: lets a test see that code is waiting before it moves time. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing the timers due on the way. */
  advance(ms: number): void {
    const until = this.ms + ms;
    for (let next = this.due(until); next; next = this.due(until)) {
      this.ms = Math.max(this.ms, next.at);
      if (next.every === undefined) this.timers.delete(next);
      else next.at += next.every;
      next.fn();
    }
    this.ms = Math.max(this.ms, until);
  }

  private schedule(fn: () => void, ms: number, every: number | undefined): Timer {
    const timer: Scheduled = { seq: this.seq++, at: this.ms + Math.max(0, ms), every, fn };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  private due(until: number): Scheduled | undefined {
    let first: Scheduled | undefined;
    for (const t of this.timers) if (t.at <= until && (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq))) first = t;
    return first;
  }
}
