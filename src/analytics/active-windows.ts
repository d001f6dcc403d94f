/**
 * Weekly and monthly active users of each day of a range, exact, from each user's active days.
 *
 * Days are numbers: 0 is 29 days before the range's first day, `offset` (29) is its first
 * day. Each active day `a` of a user puts the user in the windows ending on a .. a+W-1; the
 * part of that interval not already covered by the user's previous active day is added as
 * +1 at its start and -1 after its end, and a running sum gives every window's distinct users
 * in one pass: the cost is the number of user-days read, never the number of events.
 */
export const WINDOW_LOOKBACK = 29;

export function activeUserWindows(activeDaysPerUser: number[][], rangeDays: number): { wau: number[]; mau: number[] } {
  const length = WINDOW_LOOKBACK + rangeDays + 31;
  const week = new Int32Array(length);
  const month = new Int32Array(length);
  for (const days of activeDaysPerUser) {
    const sorted = Int32Array.from(days).sort();
    let prev = -Infinity;
    for (const a of sorted) {
      week[Math.max(a, prev + 7)]! += 1;
      week[a + 7]! -= 1;
      month[Math.max(a, prev + 30)]! += 1;
      month[a + 30]! -= 1;
      prev = a;
    }
  }
  const wau: number[] = [];
  const mau: number[] = [];
  let w = 0;
  let m = 0;
  for (let d = 0; d < WINDOW_LOOKBACK + rangeDays; d++) {
    w += week[d]!;
    m += month[d]!;
    if (d >= WINDOW_LOOKBACK) {
      wau.push(w);
      mau.push(m);
    }
  }
  return { wau, mau };
}
