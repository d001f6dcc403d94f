import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/core/clock.js';
import { HEARTBEAT_EVERY_MS, Heartbeat, STALL_BOUND_MS } from '../../../src/core/http/heartbeat.js';

describe('the main thread heartbeat the health listener answers from', () => {
  it('is fresh while its timer runs, stalled once it has not beaten for more than 5 s, and fresh again at the next beat', () => {
    const clock = new TestClock(Date.UTC(2026, 10, 28));
    const beats = new Heartbeat();
    // The health thread's view: another Heartbeat over the same shared memory.
    const seen = new Heartbeat(beats.buffer);
    expect(seen.stalled(clock)).toBe(true);
    const timer = beats.start(clock);
    expect(seen.age(clock)).toBe(0);
    clock.advance(60_000);
    expect(seen.age(clock)).toBeLessThan(HEARTBEAT_EVERY_MS);
    expect(seen.stalled(clock)).toBe(false);

    // The loop stops turning: its timer fires no more.
    timer.cancel();
    clock.advance(STALL_BOUND_MS - HEARTBEAT_EVERY_MS);
    expect(seen.stalled(clock)).toBe(false);
    clock.advance(HEARTBEAT_EVERY_MS + 1);
    expect(seen.stalled(clock)).toBe(true);
    expect(seen.age(clock)).toBeGreaterThan(STALL_BOUND_MS);

    beats.start(clock);
    expect(seen.stalled(clock)).toBe(false);
  });

  it('counts a clock set back as a fresh beat, not as a stall', () => {
    const clock = new TestClock(Date.UTC(2026, 10, 28));
    const beats = new Heartbeat();
    beats.start(clock).cancel();
    const earlier = new TestClock(Date.UTC(2026, 10, 27));
    expect(beats.age(earlier)).toBe(0);
    expect(beats.stalled(earlier)).toBe(false);
  });
});
