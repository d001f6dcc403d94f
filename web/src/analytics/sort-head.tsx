import type { ReactNode } from 'react';
import type { Metric } from './definitions.js';
import { Term } from './term.js';

export interface SortColumn<K extends string> {
  key: K;
  label: string;
  /** Numbers sort largest first on the first click, text A to Z. */
  numeric?: boolean;
  metric?: Metric;
}

/** What a click on a column's header asks for; `asc` is left out for the descending order, the URL's default. */
export interface SortChange<K extends string> {
  sort: K;
  asc: true | undefined;
}

/**
 * A table's header row of sort buttons, with `aria-sort` on the sorted column: a click sorts by that
 * column, and a second click on the same column turns the order round. `children` adds columns that
 * do not sort.
 */
export function SortHead<K extends string>({
  columns,
  sort,
  asc,
  onSort,
  children,
}: {
  columns: readonly SortColumn<K>[];
  sort: K;
  asc: boolean;
  onSort: (change: SortChange<K>) => void;
  children?: ReactNode;
}) {
  return (
    <tr>
      {columns.map((c) => (
        <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={sort === c.key ? (asc ? 'ascending' : 'descending') : undefined}>
          <button
            type="button"
            className="sort"
            onClick={() => onSort({ sort: c.key, asc: sort === c.key ? (asc ? undefined : true) : c.numeric ? undefined : true })}
          >
            {c.label}
            <span aria-hidden="true">{sort === c.key ? (asc ? ' ▲' : ' ▼') : ''}</span>
          </button>
          {c.metric ? <Term metric={c.metric}>?</Term> : null}
        </th>
      ))}
      {children}
    </tr>
  );
}
