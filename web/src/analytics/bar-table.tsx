import type { ReactNode } from 'react';
import { number } from '../ui/format.js';

export interface BarRow {
  key: string;
  label: ReactNode;
  value: number;
}

/** A breakdown over the range: one row per entry, largest first, with a bar of its share of the largest. */
export function BarTable({ caption, name, unit, rows, limit = 15 }: { caption: ReactNode; name: string; unit: string; rows: BarRow[]; limit?: number }) {
  const sorted = [...rows].sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const shown = sorted.slice(0, limit);
  const max = Math.max(1, ...shown.map((r) => r.value));
  const total = rows.reduce((s, r) => s + r.value, 0);
  return (
    <table className="bars">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{name}</th>
          <th scope="col" className="num">
            {unit}
          </th>
          <th scope="col">
            <span className="visually-hidden">Share of the largest</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.length === 0 ? (
          <tr>
            <td colSpan={3} className="muted">
              None in this range.
            </td>
          </tr>
        ) : null}
        {shown.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.label}</th>
            <td className="num">{number(r.value)}</td>
            <td className="bar-cell" aria-hidden="true">
              <span className="bar" style={{ width: `${(100 * r.value) / max}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
      {sorted.length > limit ? (
        <tfoot>
          <tr>
            <td colSpan={3} className="muted">
              {sorted.length - limit} more, {number(sorted.slice(limit).reduce((s, r) => s + r.value, 0))} of {number(total)} in all (the CSV has every row).
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

/** Sums a breakdown list of every row into one entry per name. */
export function sumBy<R>(rows: readonly R[], list: (r: R) => readonly { name: string; value: number }[]): BarRow[] {
  const sums = new Map<string, number>();
  for (const r of rows) for (const e of list(r)) sums.set(e.name, (sums.get(e.name) ?? 0) + e.value);
  return [...sums].map(([key, value]) => ({ key, label: key === '' ? '(none)' : key, value }));
}
