import { columnsOf, type Cell, type FlatRow } from '../../client/csv-rows.js';

export { breakdownFields, explode, flatten, type Cell, type FlatRow } from '../../client/csv-rows.js';

/** Control characters, and the invisible marks that reorder or hide text (bidirectional controls). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as a terminal can show it without obeying it. Names and other text in a table come from
 * people (their profile, SCIM): an escape sequence there would rewrite an owner's screen or
 * title, a carriage return overwrite a row. C0 controls and DEL show as their Unicode pictures
 * (`\u001b` as `␛`), the rest as `\uXXXX`.
 */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

function formatCell(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : String(Math.round(v * 1000) / 1000);
  return visible(String(v));
}

/** Cuts text to `width` characters, marking the cut with an ellipsis. */
const cut = (s: string, width: number) => (s.length <= width ? s : width <= 1 ? s.slice(0, width) : `${s.slice(0, width - 1)}…`);

/**
 * A plain-text table. With `width` (a terminal's columns), wide columns are cut to fit and, when
 * even that is not enough, the rightmost columns are left out and counted in a last line.
 */
export function toTable(rows: FlatRow[], o: { columns?: string[]; width?: number } = {}): string {
  const columns = o.columns ?? columnsOf(rows);
  if (rows.length === 0) return '(no rows)\n';
  const cells = rows.map((r) => columns.map((c) => formatCell(r[c])));
  const numeric = columns.map((c) => rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === 'number'));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] as string).length)));
  let shown = columns.length;
  if (o.width !== undefined) {
    const total = () => widths.slice(0, shown).reduce((a, b) => a + b, 0) + 2 * (shown - 1);
    // Cut the widest column a character at a time, down to 8, before leaving columns out.
    while (total() > o.width) {
      let widest = -1;
      for (let i = 0; i < shown; i++) if ((widths[i] as number) > 8 && (widest < 0 || (widths[i] as number) > (widths[widest] as number))) widest = i;
      if (widest < 0) break;
      widths[widest] = (widths[widest] as number) - 1;
    }
    while (shown > 1 && total() > o.width) shown--;
  }
  const line = (row: string[]) =>
    row
      .slice(0, shown)
      .map((v, i) => {
        const w = widths[i] as number;
        const text = cut(v, w);
        return numeric[i] ? text.padStart(w) : text.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  const out = [line(columns.map((c) => visible(c.toUpperCase()))), ...cells.map(line)];
  if (shown < columns.length) out.push(`(${columns.length - shown} more columns: ${columns.slice(shown).join(', ')}; widen the terminal or use --output csv)`);
  return `${out.join('\n')}\n`;
}
