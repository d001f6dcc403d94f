import { daysBetween, eachDay } from '../core/days.js';
import { errors, type ErrorItem } from '../core/http/errors.js';
import { EARLIEST_DAY } from '../events/timestamps.js';

/** The first day that can hold data; day rows start here. */
export const FIRST_DAY = EARLIEST_DAY;
export const MAX_SPAN_DAYS = 366;

/**
 * The analytics date rules past the form (the query's DateString checks that each is a real
 * YYYY-MM-DD date): before today (UTC), start not after end, at most 366 days. Returns every problem.
 */
export function checkRange(startDate: string, endDate: string, today: string): ErrorItem[] {
  const items: ErrorItem[] = [];
  for (const [path, value] of [
    ['/startDate', startDate],
    ['/endDate', endDate],
  ] as const) {
    if (value >= today) items.push({ path, message: `must be before today (${today}, UTC): data is available through yesterday` });
  }
  if (items.length > 0) return items;
  if (startDate > endDate) return [{ path: '/startDate', message: 'must not be after endDate' }];
  const span = daysBetween(startDate, endDate) + 1;
  if (span > MAX_SPAN_DAYS) return [{ path: '/endDate', message: `gives a span of ${span} days; at most ${MAX_SPAN_DAYS} days may be asked at once` }];
  return [];
}

/** The days of a valid range that can have rows: from FIRST_DAY on; null when none. */
export function rowDays(startDate: string, endDate: string): { from: string; to: string } | null {
  const from = startDate < FIRST_DAY ? FIRST_DAY : startDate;
  return from > endDate ? null : { from, to: endDate };
}

/** A report's range checked (400 otherwise): the envelope's meta, the range that can have rows (null: none) and its days. */
export function reportRange(orgId: string, q: { startDate: string; endDate: string }, today: string) {
  const problems = checkRange(q.startDate, q.endDate, today);
  if (problems.length > 0) throw errors.invalid(problems, 'querystring');
  const days = rowDays(q.startDate, q.endDate);
  return {
    meta: { org_id: orgId, start_date: q.startDate, end_date: q.endDate },
    r: days && { orgId, ...days },
    days: days ? eachDay(days.from, days.to) : [],
  };
}
