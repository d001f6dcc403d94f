/**
 * API rows as CSV records, shared by the CLI (`--output csv`) and the web app's CSV downloads so
 * that both write the same bytes for the same rows. Only the stringifier differs: Node's build of
 * csv-stringify in the CLI, its browser build in the app, both called with `CSV_OPTIONS`.
 */
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

/** Every column of the rows, in the order they first appear. */
export function columnsOf(rows: FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** What a spreadsheet reads as the start of a formula (OWASP, CSV Injection): =, +, -, @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula, prefixed with `'` so that it shows as the text
 * it is (OWASP's CSV Injection advice). Members and guests choose such text: model, tool and
 * language names, display names, pull request titles. Only text: a figure such as -3 is a JS
 * number here and stays a number.
 */
export const neutralise = (cell: Cell): Cell => (typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell);

/**
 * RFC 4180: a header row, then one line per row, quoted where needed, CRLF line ends. A neutralised
 * cell is always quoted (OWASP), as is one holding a lone CR or LF, which csv-stringify would
 * otherwise leave bare with CRLF record ends.
 */
export const csvOptions = (columns: string[]) => ({
  header: true,
  columns,
  record_delimiter: 'windows' as const,
  quoted_match: [/^'[=+\-@\t\r]/, /[\r\n]/],
  cast: { boolean: (b: boolean) => String(b) },
});

/** The records (one array of cells per row, in column order, formulas neutralised) that `stringify` turns into CSV. */
export const csvRecords = (rows: FlatRow[], columns: string[]): Cell[][] => rows.map((r) => columns.map((c) => neutralise(r[c] ?? '')));

/** The CSV of API rows as `orgctl analytics … --output csv` writes it, with the stringifier of the caller's platform. */
export function rowsToCsv(
  stringify: (records: Cell[][], options: ReturnType<typeof csvOptions>) => string,
  apiRows: Record<string, unknown>[],
  breakdown?: string,
): string {
  const rows = breakdown ? explode(apiRows, breakdown) : apiRows.map((r) => flatten(r));
  const columns = columnsOf(rows);
  return stringify(csvRecords(rows, columns), csvOptions(columns));
}
