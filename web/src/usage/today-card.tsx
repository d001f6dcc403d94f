import { useQuery } from '@tanstack/react-query';
import { Day } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { QueryState } from '../ui/parts.js';
import { todayQuery } from './queries.js';

type Sums = { billable_tokens: number; tokens: number; sessions: number; tool_calls: number };

function TodayStats({ sums, testId }: { sums: Sums; testId: string }) {
  const items = [
    ['Credits', sums.billable_tokens, 'credits'],
    ['Tokens', sums.tokens, 'tokens'],
    ['Sessions', sums.sessions, 'sessions'],
    ['Tool calls', sums.tool_calls, 'tool-calls'],
  ] as const;
  return (
    <dl className="stats">
      {items.map(([label, value, id]) => (
        <div key={id}>
          <dt>{label}</dt>
          <dd data-testid={`${testId}-${id}`}>{number(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Today so far, live (read again every 10 seconds): the caller's own usage, and with
 * `organization` (owners and managers) the organization's. Analytics proper counts closed days.
 */
export function TodayCard({ organization = false }: { organization?: boolean }) {
  const today = useQuery(todayQuery);
  const org = organization ? today.data?.organization : null;
  return (
    <div className="card" aria-labelledby="today-title">
      <h2 id="today-title">Today so far</h2>
      <QueryState query={today} />
      {today.data ? (
        <>
          {org ? <h3>Mine</h3> : null}
          <TodayStats sums={today.data.mine} testId="today-mine" />
          {org ? (
            <>
              <h3>The organization</h3>
              <TodayStats sums={org} testId="today-org" />
              <p className="muted">{number(org.active_users)} active today.</p>
            </>
          ) : null}
          <p className="muted">
            <Day day={today.data.date} /> (UTC), live: updated as usage arrives. Analytics counts it from tomorrow.
          </p>
        </>
      ) : null}
    </div>
  );
}
