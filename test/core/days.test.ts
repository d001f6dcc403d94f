import fc from 'fast-check';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  DAY_MS,
  dayStartMs,
  daysBetween,
  daysFromCivil,
  daysInMonth,
  eachDay,
  isDay,
  monthStart,
  nextMonthStart,
  utcDay,
  weekday,
} from '../../src/core/days.js';

// The oracles: the engine's own formatter and parser, and the copies src/core/days.ts replaced
// (analytics' dayNumber and dateOf, limits' month by Date.UTC), so "behaviour unchanged" is checked, not assumed.
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const oldDayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const oldDateOf = (n: number) => iso(n * DAY_MS);
const oldNextMonth = (day: string) => {
  const at = new Date(`${day}T00:00:00Z`);
  return iso(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
};

// Every day of the years 0000 to 9999, the days the YYYY-MM-DD spelling can name; the years
// 1900 to 2100 again, where the days of the service lie and the leap-year rules of 1900 and 2000 apply.
const FIRST = oldDayNumber('0000-01-01');
const LAST = oldDayNumber('9999-12-31');
const dayIn = (first: number, last: number) => fc.integer({ min: first, max: last }).map(oldDateOf);
const anyDay = fc.oneof(
  dayIn(FIRST, LAST),
  dayIn(oldDayNumber('1900-01-01'), oldDayNumber('2100-12-31')),
  fc.constantFrom('0000-01-01', '9999-12-31', '2000-02-29', '1900-02-28', '2026-01-14', '2026-12-31'),
);
/** Months from 1900 on: Date.UTC, the old limits oracle, reads the years 0 to 99 as 1900 to 1999. */
const modernDay = fc.oneof(dayIn(oldDayNumber('1900-01-01'), LAST - 31), fc.constantFrom('2000-02-29', '2100-02-28', '2026-12-31', '2027-01-01'));

describe('utcDay', () => {
  it('names the UTC day of an instant as toISOString does, over the whole range of Date (cached names included)', () => {
    const ms = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: FIRST * DAY_MS, max: (LAST + 1) * DAY_MS - 1 }),
      fc.constantFrom(-8.64e15, 8.64e15, -1, 0, DAY_MS - 1, DAY_MS),
    );
    fc.assert(
      fc.property(ms, (t) => {
        expect(utcDay(t), String(t)).toBe(iso(t));
        expect(utcDay(t), String(t)).toBe(iso(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('names the day of each millisecond either side of midnight', () => {
    const start = dayStartMs('2026-03-01');
    expect([utcDay(start - 1), utcDay(start), utcDay(start + DAY_MS - 1), utcDay(start + DAY_MS)]).toEqual([
      '2026-02-28',
      '2026-03-01',
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});

describe('addDays and daysBetween', () => {
  it('are inverse: n days after a day is n days between them, and n days back is the day again', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -4000, max: 4000 }), (day, n) => {
        const later = oldDayNumber(day) + n;
        fc.pre(later >= FIRST && later <= LAST);
        const moved = addDays(day, n);
        expect(moved).toBe(oldDateOf(later));
        expect(daysBetween(day, moved)).toBe(n);
        expect(addDays(moved, -n)).toBe(day);
      }),
      { numRuns: 3000 },
    );
  });

  it('count 0 for the same day and cross month, year and leap-day ends', () => {
    expect(daysBetween('2026-01-14', '2026-01-14')).toBe(0);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2026-03-02', '2026-03-01')).toBe(-1);
  });
});

describe('eachDay', () => {
  it('lists daysBetween + 1 days, from the first to the last, each the day after the one before (none when from is after to)', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -5, max: 400 }), (from, span) => {
        fc.pre(oldDayNumber(from) + span <= LAST);
        const to = addDays(from, span);
        const days = eachDay(from, to);
        expect(days.length).toBe(Math.max(0, daysBetween(from, to) + 1));
        expect(days).toEqual(Array.from({ length: Math.max(0, span + 1) }, (_, i) => oldDateOf(oldDayNumber(from) + i)));
      }),
      { numRuns: 300 },
    );
  });

  it('lists nothing for a day that is not a date, as the loops it replaced did', () => {
    expect(eachDay('2026-02-32', '2026-03-01')).toEqual([]);
    expect(eachDay('2026-03-01', 'soon')).toEqual([]);
  });
});

describe('months', () => {
  it('start on the 1st, end before the next 1st, which Date.UTC agrees with, and hold daysInMonth days', () => {
    fc.assert(
      fc.property(modernDay, (day) => {
        const first = monthStart(day);
        const next = nextMonthStart(day);
        expect(next).toBe(oldNextMonth(day));
        expect(first <= day && day < next).toBe(true);
        expect(daysBetween(first, next)).toBe(daysInMonth(Number(day.slice(0, 4)), Number(day.slice(5, 7))));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('weekday', () => {
  it('is Thursday on 1970-01-01 and moves on by one each day', () => {
    expect(weekday('1970-01-01')).toBe(4);
    fc.assert(
      fc.property(anyDay, (day) => {
        fc.pre(day < '9999-12-31');
        expect(weekday(addDays(day, 1))).toBe((weekday(day) + 1) % 7);
      }),
    );
  });
});

describe('daysFromCivil', () => {
  it('is the day number of every real date of the years 0000 to 9999', () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        expect(daysFromCivil(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10)))).toBe(oldDayNumber(day));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('isDay', () => {
  // The request schemas' `date` format, as the server's validator checks it.
  const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
  const dateFormat = addFormats.get('date', 'full') as { validate: (value: string) => boolean };
  const spelling = fc.oneof(
    anyDay,
    fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
    fc.string({ maxLength: 12 }),
    fc.constantFrom('2026-02-29', '2024-02-29', '1900-02-29', '2000-02-29', '2026-1-14', '2026-01-14 ', '+02026-01-14', '2026-01-14T00:00:00Z'),
  );

  it("says of every spelling what the schemas' date format says", () => {
    fc.assert(
      fc.property(spelling, (value) => {
        expect(isDay(value), value).toBe(dateFormat.validate(value));
      }),
      { numRuns: 5000 },
    );
  });
});
