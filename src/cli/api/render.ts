import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null;
export type FlatRow = Record<string, Cell>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One breakdown entry in a cell: its text fields joined by `/`, then `=` and its first number
 * (`claude-sonnet-4/standard=1200`); entries are joined by `;`.
 */
function compactEntry(item: unknown): string {
  if (!isObject(item)) return String(item);
  const values = Object.values(item);
  const label = values.filter((v) => typeof v === 'string').join('/');
  const number = values.find((v) => typeof v === 'number');
  return number === undefined ? label : `${label}=${number}`;
}

/**
 * An API row as flat columns: nested objects become `parent.child`, lists of text are joined by
 * `;`, and breakdown lists (of objects) become one compact cell, or are left out with `scalarsOnly`.
 */
export function flatten(row: Record<string, unknown>, o: { scalarsOnly?: boolean; prefix?: string } = {}): FlatRow {
  const out: FlatRow = {};
  const prefix = o.prefix ?? '';
  for (const [k, v] of Object.entries(row)) {
    const name = `${prefix}${k}`;
    if (isObject(v)) Object.assign(out, flatten(v, { ...o, prefix: `${name}.` }));
    else if (Array.isArray(v)) {
      const ofObjects = v.some(isObject);
      if (ofObjects && o.scalarsOnly) continue;
      out[name] = v.map(compactEntry).join(';');
    } else out[name] = v === undefined ? null : (v as Cell);
  }
  return out;
}

/** The breakdown lists of a row type: the fields that hold lists of objects. */
export function breakdownFields(rows: Record<string, unknown>[]): string[] {
  const names = new Set<string>();
  for (const row of rows.slice(0, 50)) for (const [k, v] of Object.entries(row)) if (Array.isArray(v) && v.some(isObject)) names.add(k);
  return [...names];
}

/** One row per entry of `field` (a day without entries keeps one row with empty entry columns). */
export function explode(rows: Record<string, unknown>[], field: string): FlatRow[] {
  return rows.flatMap((row) => {
    const { [field]: list, ...rest } = row;
    const base = flatten(rest, { scalarsOnly: true });
    const items = Array.isArray(list) ? list : [];
    if (items.length === 0) return [base];
    return items.map((item) => ({ ...base, ...flatten(isObject(item) ? item : { value: item }, { prefix: `${field}.` }) }));
  });
}

function columnsOf(rows: FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** RFC 4180: a header row, then one line per row, quoted where needed, CRLF line ends. */
export function toCsv(rows: FlatRow[], columns = columnsOf(rows)): string {
  return stringify(
    rows.map((r) => columns.map((c) => r[c] ?? '')),
    { header: true, columns, record_delimiter: 'windows', cast: { boolean: (b) => String(b) } },
  );
}

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
