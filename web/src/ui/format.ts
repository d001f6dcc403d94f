import { DAY_MS, utcDay } from '../../../src/core/days.js';

export const number = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString());

/** YYYY-MM-DD of today plus `days`, UTC: analytics days are UTC days. */
export const dayFromToday = (days: number): string => utcDay(Date.now() + days * DAY_MS);
