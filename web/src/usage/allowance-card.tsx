import { useQuery } from '@tanstack/react-query';
import { PeriodDays } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { QueryState } from '../ui/parts.js';
import { ForecastText } from './forecast.js';
import { allowanceQuery } from './queries.js';

/** The caller's own credits this period: limit, used, remaining, and where the limit comes from. */
export function AllowanceCard() {
  const allowance = useQuery(allowanceQuery());
  if (!allowance.data) return <QueryState query={allowance} />;
  const a = allowance.data;
  const share = a.limit ? Math.min(100, Math.round((a.used / a.limit) * 100)) : undefined;
  return (
    <div className="card" aria-labelledby="allowance-title">
      <h2 id="allowance-title">My allowance</h2>
      <dl className="stats">
        <div>
          <dt>Used</dt>
          <dd data-testid="allowance-used">{number(a.used)}</dd>
        </div>
        <div>
          <dt>Limit</dt>
          <dd>{a.limit === null ? 'No limit' : number(a.limit)}</dd>
        </div>
        <div>
          <dt>Remaining</dt>
          <dd>{a.remaining === null ? '—' : number(a.remaining)}</dd>
        </div>
        <div>
          <dt>Period</dt>
          <dd>
            <PeriodDays start={a.periodStart} end={a.periodEnd} />
          </dd>
        </div>
      </dl>
      {share !== undefined ? <progress max={100} value={share} aria-label={`${share} % of the limit used`} /> : null}
      <p className="muted">
        Standard Credits; the limit is{' '}
        {a.source === 'individual'
          ? 'set for you'
          : a.source === 'global'
            ? "the organization's per-user limit"
            : a.source === 'team'
              ? `the monthly budget of your team ${a.teamName ?? ''}, for all its members together`
              : 'not set'}
        .
      </p>
      {a.forecast ? (
        <p data-testid="allowance-forecast">
          <ForecastText forecast={a.forecast} />
        </p>
      ) : null}
      {a.budgets && a.budgets.length > 1 ? (
        <ul className="muted" aria-label="Every budget that applies">
          {a.budgets.map((b) => (
            <li key={b.teamId ?? b.scope}>
              {b.scope === 'team' ? `Team ${b.teamName ?? ''}` : b.scope === 'user' ? 'Your own limit' : "The organization's per-user limit"}: {number(b.used)}{' '}
              used of {number(b.limit)}, {number(b.remaining)} remaining
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
