import { DAY_MS, utcDay } from '../../../src/core/days.js';

export const dateTime = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : new Date(ms).toLocaleString());
export const number = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString());

/** YYYY-MM-DD of today plus `days`, UTC: analytics days are UTC days. */
export const dayFromToday = (days: number): string => utcDay(Date.now() + days * DAY_MS);

/** The days of a period of ISO instants [start, end) such as an allowance's month: its first day to its last. */
export const periodDays = (start: string, end: string): string => `${start.slice(0, 10)} to ${utcDay(Date.parse(end) - 1)}`;
