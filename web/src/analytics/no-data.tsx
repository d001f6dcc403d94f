import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Day } from '../ui/dates.js';
import { QueryState } from '../ui/parts.js';
import { todayQuery } from '../usage/queries.js';

/**
 * What an analytics page shows instead of empty charts when its range holds no activity: why, and
 * what to do. Either no usage has ever arrived (connect an agent, or try the demo organization),
 * or it arrived outside the range: analytics counts closed days, so today's shows tomorrow.
 */
export function NoData({ what, startDate, endDate }: { what: string; startDate: string; endDate: string }) {
  const today = useQuery(todayQuery);
  const first = today.data?.organization?.first_active_date;
  return (
    <div className="card no-data" data-testid="analytics-empty" aria-labelledby="no-data-title">
      <h2 id="no-data-title">
        No {what} from <Day day={startDate} /> to <Day day={endDate} />
      </h2>
      {!today.data ? (
        <QueryState query={today} />
      ) : first === null ? (
        <>
          <p>No usage has reached this service yet: analytics is built from the events and OpenTelemetry that agents send.</p>
          <ul>
            <li>
              <Link to="/" hash="getting-started">
                Connect an agent
              </Link>{' '}
              (the settings are on the overview, under Getting started; docs/otlp.md of orgctl has every client).
            </li>
            <li>
              Or try orgctl with a demo organization: <code>orgctl serve --demo</code> seeds 60 days of telemetry on its first start.
            </li>
          </ul>
        </>
      ) : (
        <p>
          {first ? (
            <>
              Usage has arrived since <Day day={first} />, but none in this range.{' '}
            </>
          ) : null}
          Analytics counts closed days (UTC), through yesterday: usage of today shows here tomorrow, and on the <Link to="/">overview</Link> as it arrives.
          Choose a longer range above.
        </p>
      )}
    </div>
  );
}
