import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activeUserWindows, WINDOW_LOOKBACK } from '../../src/analytics/active-windows.js';

describe('activeUserWindows', () => {
  it('counts a user from the first to the last day of each window, and once when active on several days', () => {
    // One user active on day 29 (the range's first day) and day 31; range of 40 days.
    const { wau, mau } = activeUserWindows([[WINDOW_LOOKBACK, WINDOW_LOOKBACK + 2]], 40);
    expect(wau.slice(0, 10)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]); // last window holding day 31 ends on day 37
    expect(mau[31]).toBe(1);
    expect(mau[32]).toBe(0);
  });

  it('equals counting distinct users window by window (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: WINDOW_LOOKBACK + 19 }), { maxLength: 12 }), { maxLength: 8 }), (users) => {
        const { wau, mau } = activeUserWindows(users, 20);
        for (let i = 0; i < 20; i++) {
          const d = WINDOW_LOOKBACK + i;
          expect(wau[i]).toBe(users.filter((days) => days.some((a) => a <= d && a > d - 7)).length);
          expect(mau[i]).toBe(users.filter((days) => days.some((a) => a <= d && a > d - 30)).length);
        }
      }),
    );
  });
});
