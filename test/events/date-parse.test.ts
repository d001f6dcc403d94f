import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateParse } from '../../src/events/timestamps.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('dateParse', () => {
  it('equals Date.parse for the spelling it reads itself, days past a month end and the edges of each field included', () => {
    const field = (min: number, max: number) => fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    fc.assert(
      fc.property(field(0, 9999), field(1, 12), field(1, 31), field(0, 23), field(0, 59), field(0, 59), fc.option(field(0, 999)), (y, mo, d, h, mi, s, ms) => {
        const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${ms === null ? '' : `.${pad(ms, 3)}`}Z`;
        expect(dateParse(text), text).toBe(Date.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals Date.parse for anything else: other spellings, out-of-range fields, near misses', () => {
    const near = fc
      .tuple(fc.constantFrom('2026-03-01T12:00:00.000Z', '2026-03-01T12:00:00Z'), fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))
      .map(([text, at, c]) => text.slice(0, at % text.length) + c + text.slice((at % text.length) + 1));
    const spellings = fc.constantFrom(
      '2026-03-01T12:00:00+02:00',
      '2026-03-01',
      '2026-03-01T24:00:00Z',
      '2026-03-00T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T00:00:60Z',
      '2026-03-01T12:00:00.1234Z',
      '2026-03-01t12:00:00z',
      '+002026-03-01T12:00:00Z',
      '',
      'soon',
    );
    fc.assert(
      fc.property(fc.oneof(near, spellings, fc.string({ maxLength: 24 })), (text) => {
        expect(Object.is(dateParse(text), Date.parse(text)), text).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
