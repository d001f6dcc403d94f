/**
 * Calendar days of UTC, written YYYY-MM-DD (a "day"): the one place that turns instants into
 * days and counts days, for the server, the CLI and the web app alike. Analytics, limits and
 * the event timestamps all speak UTC days, so every spelling of "yesterday", "29 days before"
 * or "the 1st of the month" must agree to the day. Pure and free of Node: the web app imports
 * it too (web/tsconfig.json, eslint.config.js).
 */

/** The length of a day in milliseconds: UTC has no daylight saving and JavaScript no leap seconds. */
export const DAY_MS = 86_400_000;

/** The day of a day number (days since 1970-01-01), built by the engine's own ISO formatter. */
const dayOfNumber = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

// Ingestion names the day of every event, so each day's name is built once. Only utcDay fills
// this map, and its callers pass instants of a bounded span (event times, which ingestion keeps
// between EARLIEST_MS and now; now; the days of a chart), never a day a request names: the map
// holds a few thousand names at most. addDays and eachDay, which take such days, build theirs.
const dayNames = new Map<number, string>();

/** The UTC day of an instant in epoch milliseconds (each day's name is built once). */
export function utcDay(ms: number): string {
  const n = Math.floor(ms / DAY_MS);
  let name = dayNames.get(n);
  if (name === undefined) dayNames.set(n, (name = dayOfNumber(n)));
  return name;
}

/** The instant a day begins (00:00:00Z), in epoch milliseconds; NaN when `day` is not a date. */
export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * Whether `value` names a real day, YYYY-MM-DD (no 2026-02-30): the rule of the `date` format
 * the request schemas declare, for a value that comes another way (a command-line flag).
 */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = dayStartMs(value);
  // The engine's parser takes a month's 30th or 31st that does not exist as a day of the next month.
  return !Number.isNaN(ms) && dayOfNumber(ms / DAY_MS) === value;
}

/** The day `n` days after `day` (before it when `n` is negative). */
export const addDays = (day: string, n: number): string => dayOfNumber(dayStartMs(day) / DAY_MS + n);

/** How many days `to` is after `from` (negative when before): 0 for the same day, so a range from..to holds daysBetween + 1 days. */
export const daysBetween = (from: string, to: string): number => Math.round((dayStartMs(to) - dayStartMs(from)) / DAY_MS);

/** Every day of from..to, both included, in order; none when `from` is after `to`. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let n = dayStartMs(from) / DAY_MS, last = dayStartMs(to) / DAY_MS; n <= last; n++) out.push(dayOfNumber(n));
  return out;
}

/** The day of the week, 0 for Sunday to 6 for Saturday. */
export const weekday = (day: string): number => new Date(dayStartMs(day)).getUTCDay();

/** The 1st of the day's month. */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** The 1st of the month after the day's: 31 days after any month's 1st is in the next month (days 1 to 4). */
export const nextMonthStart = (day: string): string => monthStart(addDays(monthStart(day), 31));

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The number of days of a month (1 to 12) of the proleptic Gregorian calendar. */
export const daysInMonth = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1]!);

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
 * days_from_civil): integer arithmetic only, for reading event times faster than Date.UTC. A day
 * past its month's end counts on from the month's start (February 30th is March 2nd).
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}
