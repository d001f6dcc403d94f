import type { CommandContext } from './command.js';
import { stringify } from 'csv-stringify/sync';
import { rowsToCsv } from '../../client/csv-rows.js';
import { explode, flatten, toTable, visible } from './render.js';

/** The width tables fit: the terminal's, or none when the output is not a terminal. */
const terminalWidth = (): number | undefined => (process.stdout.isTTY ? process.stdout.columns || 80 : undefined);

/**
 * Prints a list in the chosen format: json is the API's body itself; csv one row per API row
 * (or per breakdown entry with --breakdown); table the same rows without the breakdown lists.
 */
export function printList(ctx: CommandContext, body: unknown, rows: Record<string, unknown>[], o: { columns?: string[] } = {}): void {
  if (ctx.output === 'json') {
    process.stdout.write(`${JSON.stringify(body)}\n`);
    return;
  }
  const breakdown = typeof ctx.values.breakdown === 'string' ? ctx.values.breakdown : undefined;
  if (ctx.output === 'csv') {
    // The web app's CSV downloads call the same function with csv-stringify's browser build.
    process.stdout.write(rowsToCsv(stringify, rows, breakdown));
    return;
  }
  if (breakdown) {
    // On screen a breakdown shows the day and its entries; csv keeps the day's figures beside them.
    const flat = explode(rows, breakdown);
    const columns = [...new Set(flat.flatMap((r) => Object.keys(r)))].filter((c) => c === 'date' || c.startsWith(`${breakdown}.`));
    process.stdout.write(toTable(flat, { columns, width: terminalWidth() }));
    return;
  }
  process.stdout.write(
    toTable(
      rows.map((r) => flatten(r, { scalarsOnly: true })),
      { columns: o.columns, width: terminalWidth() },
    ),
  );
}

/** Prints one object: its body as JSON, or its fields as `name  value` lines. */
export function printObject(ctx: CommandContext, body: unknown, lines?: string[]): void {
  if (ctx.output === 'json' || !lines) {
    process.stdout.write(`${JSON.stringify(body)}\n`);
    return;
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `name  value` lines, names padded to one column; values shown, never obeyed, by the terminal. */
export function fields(pairs: [string, unknown][]): string[] {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : visible(String(v))}`);
}

/** Unix milliseconds as an ISO time, or `-`. */
export const when = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** Standard Credits as a person reads them (1,000,000), or `none` for no limit or budget. */
export const credits = (n: number | null) => (n === null ? 'none' : n.toLocaleString('en-US'));
