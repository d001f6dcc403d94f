import { columnsOf, type Cell, type FlatRow } from '../../client/csv-rows.js';

export { breakdownFields, explode, flatten, type Cell, type FlatRow } from '../../client/csv-rows.js';

function formatCell(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : String(Math.round(v * 1000) / 1000);
  return String(v);
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
  const out = [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)];
  if (shown < columns.length) out.push(`(${columns.length - shown} more columns: ${columns.slice(shown).join(', ')}; widen the terminal or use --output csv)`);
  return `${out.join('\n')}\n`;
}
