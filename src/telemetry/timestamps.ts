/** The earliest moment telemetry (and so analytics) can hold: 2026-01-14T00:00:00Z. */
export const EARLIEST_MS = Date.UTC(2026, 0, 14);
export const MAX_FUTURE_MS = 5 * 60 * 1000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * An event timestamp as epoch milliseconds, or an error message: ISO 8601 with an explicit
 * offset (a local time without one would be ambiguous) or epoch milliseconds, within bounds.
 */
export function parseTimestamp(value: string | number, nowMs: number): { ms: number } | { error: string } {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else {
    const m = ISO.exec(value);
    if (!m) return { error: 'must be ISO 8601 with a UTC offset (2026-03-01T12:00:00Z) or epoch milliseconds' };
    const [year, month, day, hour, minute, second = '0', , oh = '0', om = '0'] = m.slice(1).map((p) => p ?? '0');
    const y = Number(year), mo = Number(month), d = Number(day);
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Number(oh) > 23 || Number(om) > 59) {
      return { error: 'is not a real date and time' };
    }
    ms = Date.parse(value);
    if (!Number.isFinite(ms)) return { error: 'is not a real date and time' };
  }
  if (ms < EARLIEST_MS) return { error: 'must not be before 2026-01-14T00:00:00Z' };
  if (ms > nowMs + MAX_FUTURE_MS) return { error: 'must not be more than 5 minutes in the future' };
  return { ms };
}

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
