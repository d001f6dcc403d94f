import { useQuery } from '@tanstack/react-query';
import { api, call, type Body } from '../api.js';
import { Day } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { QueryState, TableScroll } from '../ui/parts.js';
import { allowanceQuery } from './queries.js';

export type Forecast = NonNullable<Body<'/api/v0/usage/allowance', 'get'>['forecast']>;

/** One sentence of a forecast (docs/usage-limits.md, Forecast): the projected month end, the rate, the day the limit is reached. */
export function ForecastText({ forecast: f }: { forecast: Forecast }) {
  if (f.dailyRate === null || f.projectedUsed === null) return <>No forecast yet: the month has no complete day.</>;
  return (
    <>
      Heading for {number(f.projectedUsed)} by the end of the month at {number(f.dailyRate)} a day (the mean of the last complete days, at most 7)
      {f.limitReachedOn ? (
        <>
          ; the limit is reached on <Day day={f.limitReachedOn} />
        </>
      ) : null}
      .
    </>
  );
}

const teamBudgetsQuery = {
  queryKey: ['limits', 'teams'],
  queryFn: () => call(api.GET('/api/v0/organization/usage/limits/teams')),
};

/** The organization's and each team budget's month so far and where it is heading: the usage limits page, for owners and managers. */
export function ForecastCard() {
  const allowance = useQuery(allowanceQuery());
  const teams = useQuery(teamBudgetsQuery);
  const org = allowance.data?.organization;
  return (
    <div className="card" aria-labelledby="forecast-title">
      <h2 id="forecast-title">Forecast</h2>
      <QueryState query={allowance} />
      {org ? (
        <p data-testid="organization-forecast">
          The organization has used {number(org.used)} credits this month. <ForecastText forecast={org.forecast} />
        </p>
      ) : null}
      {teams.data && teams.data.teams.length > 0 ? (
        <TableScroll label="Team budgets">
          <table data-testid="team-forecasts">
            <caption>Team budgets this month and their forecast</caption>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col" className="num">
                  Budget
                </th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  Month end
                </th>
                <th scope="col">Limit reached</th>
              </tr>
            </thead>
            <tbody>
              {teams.data.teams.map((t) => (
                <tr key={t.teamId}>
                  <th scope="row">{t.teamName}</th>
                  <td className="num">{number(t.limit)}</td>
                  <td className="num">{number(t.used)}</td>
                  <td className="num">{t.forecast.projectedUsed === null ? '—' : number(t.forecast.projectedUsed)}</td>
                  <td>{t.forecast.limitReachedOn ? <Day day={t.forecast.limitReachedOn} /> : 'Not this month'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </div>
  );
}
