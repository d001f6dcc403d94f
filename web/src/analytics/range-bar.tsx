import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Day } from '../ui/dates.js';
import { Field } from '../ui/parts.js';
import { customRangeProblem, DEFAULT_DAYS, PRESETS, resolveRange } from './range.js';

/** The range of every analytics page: presets of the last 7/30/90/365 days, or a custom range (at most 366 days); kept in the URL. */
export function RangeBar() {
  const search = useSearch({ from: '/shell/analytics' });
  const navigate = useNavigate();
  const range = resolveRange(search);
  const [draft, setDraft] = useState({ from: range.startDate, to: range.endDate });
  const [problem, setProblem] = useState<string>();
  const current = search.from ? undefined : (search.days ?? DEFAULT_DAYS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = customRangeProblem(draft.from, draft.to);
    setProblem(p);
    if (!p) void navigate({ to: '.', search: (prev) => ({ ...prev, days: undefined, from: draft.from, to: draft.to }) });
  };
  return (
    <div className="range-bar">
      <nav aria-label="Date range presets">
        <ul className="presets">
          {PRESETS.map((d) => (
            <li key={d}>
              <Link
                to="."
                search={(prev) => ({ ...prev, from: undefined, to: undefined, days: d })}
                aria-current={current === d ? 'true' : undefined}
                className={current === d ? 'preset active' : 'preset'}
              >
                Last {d} days
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form className="inline" onSubmit={submit} aria-label="Custom date range">
        <Field label="From">
          <input type="date" required value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </Field>
        <Field label="To">
          <input type="date" required value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </Field>
        <button type="submit">Show range</button>
        {problem ? (
          <p className="error" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
      <p className="muted range-label" data-testid="range-label">
        <Day day={range.startDate} /> to <Day day={range.endDate} /> (UTC days, through yesterday)
      </p>
    </div>
  );
}
