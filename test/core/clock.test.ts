import { describe, expect, it } from 'vitest';
import { systemClock, TestClock } from '../../src/core/clock.js';

const START = Date.parse('2026-01-15T12:00:00Z');

describe('TestClock', () => {
  it('fires nothing until advanced, then each due timer once, at its own time, in order of time then of scheduling', () => {
    const clock = new TestClock(START);
    const fired: string[] = [];
    const at = (name: string) => () => fired.push(`${name}@${clock.now().getTime() - START}`);
    clock.timeout(at('b'), 20);
    clock.timeout(at('a'), 10);
    clock.timeout(at('c'), 20);
    clock.timeout(at('late'), 31);
    expect(clock.pending).toBe(4);
    expect(fired).toEqual([]);
    clock.advance(30);
    expect(fired).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.now().getTime()).toBe(START + 30);
    expect(clock.pending).toBe(1);
    clock.advance(1);
    expect(fired).toEqual(['a@10', 'b@20', 'c@20', 'late@31']);
    expect(clock.pending).toBe(0);
  });

  it('repeats an interval until cancelled, and fires within the same advance what a timer schedules', () => {
    const clock = new TestClock(START);
    const ticks: number[] = [];
    const every = clock.interval(() => ticks.push(clock.now().getTime() - START), 100);
    clock.timeout(() => clock.timeout(() => ticks.push(-1), 5), 250);
    clock.advance(350);
    expect(ticks).toEqual([100, 200, -1, 300]);
    every.cancel();
    clock.advance(1000);
    expect(ticks).toEqual([100, 200, -1, 300]);
    expect(clock.pending).toBe(0);
  });

  it('a cancelled timeout never fires; cancelling twice or after firing is harmless', () => {
    const clock = new TestClock(START);
    let fired = 0;
    const kept = clock.timeout(() => fired++, 10);
    const dropped = clock.timeout(() => (fired += 100), 10);
    dropped.cancel();
    dropped.cancel();
    clock.advance(10);
    kept.cancel();
    expect(fired).toBe(1);
  });

  it('sleep resolves when the clock passes it, or at once when its signal aborts', async () => {
    const clock = new TestClock(START);
    let woke = false;
    const sleeping = clock.sleep(1000).then(() => (woke = true));
    clock.advance(999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);

    const stop = new AbortController();
    const stopped = clock.sleep(60_000, { signal: stop.signal });
    stop.abort();
    await stopped;
    expect(clock.pending).toBe(0);
    await clock.sleep(60_000, { signal: stop.signal }); // already aborted: resolves at once
    expect(clock.now().getTime()).toBe(START + 1000);
  });

  it('abortAfter aborts with a TimeoutError when the clock passes it', () => {
    const clock = new TestClock(START);
    const signal = clock.abortAfter(500);
    clock.advance(499);
    expect(signal.aborted).toBe(false);
    clock.advance(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });
});

describe('systemClock', () => {
  it('runs its timers on Node: a timeout fires, a cancelled one does not, an interval repeats until cancelled', async () => {
    let cancelledFired = false;
    systemClock.timeout(() => (cancelledFired = true), 1).cancel();
    await new Promise<void>((resolve) => systemClock.timeout(resolve, 1, { keepAlive: false }));
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const every = systemClock.interval(() => {
        if (++ticks === 3) {
          every.cancel();
          resolve();
        }
      }, 1);
    });
    await systemClock.sleep(5);
    expect(cancelledFired).toBe(false);
    expect(ticks).toBe(3);
    expect(systemClock.abortAfter(60_000).aborted).toBe(false);
  });
});
