import { parse } from 'csv-parse/sync';
import { stringify as nodeStringify } from 'csv-stringify/sync';
import { stringify as browserStringify } from 'csv-stringify/browser/esm/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsToCsv } from '../../src/client/csv-rows.js';

const toCsv = (rows: Record<string, unknown>[], breakdown?: string) => rowsToCsv(nodeStringify, rows, breakdown);
const lines = (csv: string) => csv.split('\r\n').slice(0, -1);

describe('CSV of API rows: formula injection (OWASP)', () => {
  it.each([
    ['=HYPERLINK("http://evil.test","x")', `"'=HYPERLINK(""http://evil.test"",""x"")"`],
    ['+1+1', `"'+1+1"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
  ])('a text cell %j is written %s: a leading quote, and quoted', (text, cell) => {
    expect(lines(toCsv([{ model: text, tokens: 3 }]))).toEqual(['model,tokens', `${cell},3`]);
  });

  it('keeps numbers numbers: -3 and 0 in a figure column stay as they are', () => {
    expect(lines(toCsv([{ date: '2026-11-01', delta: -3, zero: 0, ok: true, none: null }]))).toEqual(['date,delta,zero,ok,none', '2026-11-01,-3,0,true,']);
  });

  it('leaves ordinary text alone, a quote inside it or a sign later on included', () => {
    expect(lines(toCsv([{ name: "O'Brien", title: 'fix: a-b = c', model: 'claude-sonnet-4' }]))).toEqual([
      'name,title,model',
      "O'Brien,fix: a-b = c,claude-sonnet-4",
    ]);
  });

  it('neutralises breakdown cells and exploded breakdown entries alike', () => {
    const rows = [{ date: '2026-11-01', by_model: [{ model: '=cmd|calc', tokens: -5 }] }];
    expect(lines(toCsv(rows))).toEqual(['date,by_model', `2026-11-01,"'=cmd|calc=-5"`]);
    expect(lines(toCsv(rows, 'by_model'))).toEqual(['date,by_model.model,by_model.tokens', `2026-11-01,"'=cmd|calc",-5`]);
  });

  it('a parser reads back the text with its quote, never a formula; the browser build writes the same bytes (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.constantFrom('', '=', '+', '-', '@', '\t', '\r'), fc.integer({ min: -1000, max: 1000 }), (rest, lead, n) => {
        const rows = [{ name: `${lead}${rest}`, n }];
        const csv = toCsv(rows);
        expect(rowsToCsv((records, options) => browserStringify(records, options), rows)).toBe(csv);
        const [record] = parse(csv, { columns: true }) as Record<string, string>[];
        expect(record!.n).toBe(String(n));
        expect(record!.name).toBe(/^[=+\-@\t\r]/.test(rows[0]!.name) ? `'${rows[0]!.name}` : rows[0]!.name);
      }),
    );
  });
});
