import { DAY_MS, daysFromCivil, daysInMonth } from '../core/days.js';

/** The earliest moment an event (and so analytics) can hold; every other spelling of it derives from this one. */
export const EARLIEST_MS = Date.UTC(2026, 0, 14);
/** EARLIEST_MS as ISO 8601 (2026-01-14T00:00:00Z). */
export const EARLIEST_ISO = new Date(EARLIEST_MS).toISOString().replace('.000Z', 'Z');
/** The day of EARLIEST_MS (2026-01-14), the first day analytics has rows for. */
export const EARLIEST_DAY = EARLIEST_ISO.slice(0, 10);
export const MAX_FUTURE_MS = 5 * 60 * 1000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * An event timestamp as epoch milliseconds, or an error message: ISO 8601 with an explicit
 * offset (a local time without one would be ambiguous) or epoch milliseconds, within bounds.
 * Digits past the millisecond are dropped, as Date.parse does.
 */
export function parseTimestamp(value: string | number, nowMs: number): { ms: number } | { error: string } {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else {
    const m = ISO.exec(value);
    if (!m) return { error: 'must be ISO 8601 with a UTC offset (2026-03-01T12:00:00Z) or epoch milliseconds' };
    const y = +m[1]!,
      mo = +m[2]!,
      d = +m[3]!,
      h = +m[4]!,
      mi = +m[5]!,
      sec = m[6] === undefined ? 0 : +m[6];
    const oh = m[10] === undefined ? 0 : +m[10],
      om = m[11] === undefined ? 0 : +m[11];
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59 || oh > 23 || om > 59) {
      return { error: 'is not a real date and time' };
    }
    const milli = m[7] === undefined ? 0 : +`${m[7]}00`.slice(0, 3);
    const offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
    ms = Date.UTC(y, mo - 1, d, h, mi, sec, milli) - offset;
  }
  if (ms < EARLIEST_MS) return { error: `must not be before ${EARLIEST_ISO}` };
  if (ms > nowMs + MAX_FUTURE_MS) return { error: 'must not be more than 5 minutes in the future' };
  return { ms };
}

/**
 * Date.parse(text), with the spelling clients mostly send (2026-03-01T12:00:00.000Z or
 * 2026-03-01T12:00:00Z) read here rather than by the general parser of Date.parse, the larger
 * cost of reading a log event's time. Everything else goes to Date.parse; test/events/date-parse.test.ts
 * holds the two equal.
 */
export function dateParse(text: string): number {
  const n = text.length;
  if (
    (n === 24 || n === 20) &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(n - 1) === 90
  ) {
    const y = digits(text, 0, 4),
      mo = digits(text, 5, 2),
      d = digits(text, 8, 2),
      h = digits(text, 11, 2),
      mi = digits(text, 14, 2),
      s = digits(text, 17, 2);
    const milli = n === 24 ? (text.charCodeAt(19) === 46 ? digits(text, 20, 3) : -1) : 0;
    // Date.parse takes a day past its month's end (February 30th is March 2nd) as days from the month's start, as daysFromCivil does.
    if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && milli >= 0) {
      return daysFromCivil(y, mo, d) * DAY_MS + h * 3_600_000 + mi * 60_000 + s * 1000 + milli;
    }
  }
  return Date.parse(text);
}

/** The decimal number of `count` digits at `at`, or -1 when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}
