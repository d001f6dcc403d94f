import { addDays, dayStartMs, daysBetween, monthStart, nextMonthStart, utcDay } from '../core/days.js';

/**
 * The month-end forecast of a budget (docs/usage-limits.md, Forecast): the recent daily rate is
 * the mean of the last complete days of the month (at most 7: yesterday and the 6 days before it,
 * fewer in the first week; none on the 1st), rounded to a whole credit; the month is projected to
 * end at what is used so far plus that rate for each day after today; the limit is reached on the
 * first day the projection crosses it, when that day falls in this month.
 */
export interface Forecast {
  /** Credits a day, the mean over the window; null on the 1st of the month (no complete day yet). */
  dailyRate: number | null;
  /** What the month is projected to end at; null without a rate. */
  projectedUsed: number | null;
  /** The day (YYYY-MM-DD, UTC) the limit is reached at that rate: today when already reached; null without a limit, a rate, or when not this month. */
  limitReachedOn: string | null;
}

/** The window of the daily rate for "today": its days [from, to) as instants and how many. */
export interface RateWindow {
  today: string;
  days: number;
  from: Date;
  to: Date;
  /** Days of the month after today. */
  daysLeft: number;
}

const WINDOW_DAYS = 7;

export function rateWindow(now: Date): RateWindow {
  const today = utcDay(now.getTime());
  const days = Math.min(WINDOW_DAYS, daysBetween(monthStart(today), today));
  const lastDay = addDays(nextMonthStart(today), -1);
  return {
    today,
    days,
    from: new Date(dayStartMs(addDays(today, -days))),
    to: new Date(dayStartMs(today)),
    daysLeft: daysBetween(today, lastDay),
  };
}

/** The forecast of a budget that has `used` of `limit` (null: none) so far, with `windowCredits` used in the window. */
export function forecast(w: RateWindow, used: number, limit: number | null, windowCredits: number): Forecast {
  if (w.days === 0) return { dailyRate: null, projectedUsed: null, limitReachedOn: limit !== null && used >= limit ? w.today : null };
  const dailyRate = Math.round(windowCredits / w.days);
  const projectedUsed = used + dailyRate * w.daysLeft;
  let limitReachedOn: string | null = null;
  if (limit !== null && used >= limit) limitReachedOn = w.today;
  else if (limit !== null && dailyRate > 0) {
    // At the end of the k-th day after today, used + k × rate: the first k at which it reaches the limit.
    const k = Math.ceil((limit - used) / dailyRate);
    if (k <= w.daysLeft) limitReachedOn = addDays(w.today, k);
  }
  return { dailyRate, projectedUsed, limitReachedOn };
}
