import { useSearch } from '@tanstack/react-router';
import { useMemo, type ReactNode } from 'react';
import { eachDay } from '../../../src/core/days.js';
import { number } from '../ui/format.js';
import type { Metric } from './definitions.js';
import { resolveRange } from './range.js';
import { useTeamName } from './team-select.js';
import { Term } from './term.js';

/** The range the page shows (from the URL) and every day of it, for the charts' x axis. */
export function useRange() {
  const range = resolveRange(useSearch({ from: '/shell/analytics' }));
  // Every day of the range, for charts whose API rows skip days. One array per range: the charts
  // redraw when their days change, not on every render.
  const days = useMemo(() => eachDay(range.startDate, range.endDate), [range.startDate, range.endDate]);
  // The team in a CSV's name, so that a team's file is told apart from the organization's.
  const teamName = useTeamName(range.team_id);
  const teamFile = range.team_id ? `${(teamName ?? range.team_id).replace(/[^\p{L}\p{N}]+/gu, '-')}-` : '';
  return { ...range, days, teamFile };
}

/** Headline figures over the range, each name with its definition. */
export function Stats({ items }: { items: { metric: Metric; label: string; value: number | string; testId?: string }[] }) {
  return (
    <dl className="stats">
      {items.map((i) => (
        <div key={i.label}>
          <dt>
            <Term metric={i.metric}>{i.label}</Term>
          </dt>
          <dd data-testid={i.testId}>{typeof i.value === 'number' ? number(i.value) : i.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One value per day of the range from rows that have a date (days without a row are 0). */
export function daily<R extends { date: string }>(days: string[], rows: readonly R[], value: (r: R) => number): number[] {
  const at = new Map(days.map((d, i) => [d, i]));
  const out = new Array<number>(days.length).fill(0);
  for (const r of rows) {
    const i = at.get(r.date);
    if (i !== undefined) out[i]! += value(r);
  }
  return out;
}

export const sum = <R,>(rows: readonly R[], value: (r: R) => number): number => rows.reduce((s, r) => s + value(r), 0);

/** A section of a page, with its heading and actions (the CSV of its rows). */
export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
