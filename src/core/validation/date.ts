import { Type } from '@sinclair/typebox';

/**
 * A calendar date, YYYY-MM-DD, naming a real day (no 2026-02-30): the `date` format the
 * validator checks, so a route's schema says it (`isDay` in core/days.ts is the same rule for a
 * value that does not come in a request).
 */
export const DateString = (description: string) => Type.String({ format: 'date', description });
