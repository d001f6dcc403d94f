import { millisOf, type Clock, type Timer } from '../clock.js';

/** How often the main thread writes its heartbeat. */
export const HEARTBEAT_EVERY_MS = 200;

/**
 * How long the main thread's event loop may go without turning before the health listener's
 * `/healthz` answers 503. Far above the loop's worst delays measured under load (tens to a few
 * hundred milliseconds while 120 exports of 19 MiB arrive at once, bench/RESULTS.md, flood), so a
 * busy process stays in; a loop held for seconds (a runaway computation, a blocking call) serves
 * no request, and the load balancer should take the process out.
 */
export const STALL_BOUND_MS = 5000;

/**
 * The time of the main thread's last heartbeat, in milliseconds since the epoch, shared with the
 * health listener's thread: one 64-bit slot, written and read with Atomics.
 */
export class Heartbeat {
  private readonly slot: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT)) {
    this.slot = new BigInt64Array(buffer);
  }

  /**
   * Beats now, then every HEARTBEAT_EVERY_MS on `clock` until the returned timer is cancelled: from
   * the thread whose turning it proves. The timer keeps no process alive.
   */
  start(clock: Clock): Timer {
    const beat = () => Atomics.store(this.slot, 0, BigInt(millisOf(clock)));
    beat();
    return clock.interval(beat, HEARTBEAT_EVERY_MS, { keepAlive: false });
  }

  /** Milliseconds since the last beat by `clock` (0 when the clock went back); Infinity before the first. */
  age(clock: Clock): number {
    const last = Atomics.load(this.slot, 0);
    if (last === 0n) return Infinity;
    return Math.max(0, millisOf(clock) - Number(last));
  }

  /** Whether the beating thread has gone longer than `boundMs` without a beat. */
  stalled(clock: Clock, boundMs = STALL_BOUND_MS): boolean {
    return this.age(clock) > boundMs;
  }
}
