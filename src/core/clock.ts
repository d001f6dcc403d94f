/**
 * The one source of the current time on the server. Services take a Clock and pass its time
 * into SQL as a parameter (`$n::timestamptz`) wherever the code also reasons about the time it
 * stores or compares (leases, heartbeats, expiries), so code and database never disagree on
 * what "now" is, and tests move time forward instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

/** Milliseconds since the epoch by `clock`: for code that works in numbers (caches, tokens). */
export const millisOf = (clock: Clock): number => clock.now().getTime();

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until advanced: lets a test pass an hour in no time. */
export class TestClock implements Clock {
  private ms: number;

  constructor(start: Date | number = Date.now()) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
