import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Day, PeriodDays } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { allowanceQuery } from '../usage/queries.js';
import { Page, QueryState, TableScroll } from '../ui/parts.js';
import { CsvDownload } from './csv-download.js';
import { userRowsQuery, userTotalsQuery } from './queries.js';
import { keepRange } from './range.js';
import { Term } from './term.js';
import { TimeChart } from './time-chart.js';
import { daily, Section, Stats, sum, useRange } from './view.js';

function Allowance({ userId }: { userId: string }) {
  const a = useQuery(allowanceQuery(userId));
  if (!a.data) return <QueryState query={a} />;
  return (
    <dl className="stats" data-testid="user-allowance">
      <div>
        <dt>Monthly limit ({a.data.source})</dt>
        <dd>{a.data.limit === null ? 'none' : number(a.data.limit)}</dd>
      </div>
      <div>
        <dt>Used this month</dt>
        <dd>{number(a.data.used)}</dd>
      </div>
      <div>
        <dt>Remaining</dt>
        <dd>{a.data.remaining === null ? '—' : number(a.data.remaining)}</dd>
      </div>
      <div>
        <dt>Period (UTC)</dt>
        <dd>
          <PeriodDays start={a.data.periodStart} end={a.data.periodEnd} />
        </dd>
      </div>
    </dl>
  );
}

/** One user: allowance, credits and tool calls per day, and their daily rows of /users. */
export function UserPage() {
  const { userId } = useParams({ from: '/shell/analytics/users/$userId' });
  const { startDate, endDate, days } = useRange();
  const rows = useQuery(userRowsQuery({ startDate, endDate }, userId));
  const totals = useQuery(userTotalsQuery({ startDate, endDate }));
  const user = totals.data?.find((u) => u.user_id === userId);
  const data = useMemo(() => rows.data ?? [], [rows.data]);
  // Credits run to millions and tool calls to hundreds: each has a chart (and an axis) of its own.
  const credits = useMemo(() => [{ label: 'Credits', values: daily(days, data, (r) => r.billable_tokens) }], [data, days]);
  const tools = useMemo(() => [{ label: 'Tool calls', values: daily(days, data, (r) => r.tool_calls) }], [data, days]);
  const name = user ? (user.user_email ?? user.user_name) : userId;
  return (
    <Page title={`User ${name}`}>
      <p>
        <Link to="/analytics/users" search={keepRange}>
          All users
        </Link>
        {user ? (
          <span className="muted">
            {' '}
            · {user.user_name}, {user.role}
          </span>
        ) : null}
      </p>
      <Section title="Allowance">
        <Allowance userId={userId} />
      </Section>
      <QueryState query={rows} />
      {rows.data ? (
        <>
          <Stats
            items={[
              { metric: 'active', label: 'Active days', value: data.length },
              // The range's exact sum rounded once (as on the Users page), not the sum of rounded days.
              { metric: 'rounding', label: 'Credits', value: user?.billable_tokens ?? sum(data, (r) => r.billable_tokens), testId: 'user-credits' },
              { metric: 'user_events', label: 'Tool calls', value: sum(data, (r) => r.tool_calls) },
              { metric: 'user_events', label: 'Sessions', value: sum(data, (r) => r.sessions) },
            ]}
          />
          <Section
            title="Credits and tool calls per day"
            actions={<CsvDownload rows={rows.data} filename={`user-${userId}-${startDate}-${endDate}.csv`} label="Download CSV (per active day)" />}
          >
            <TimeChart title="Credits per day" days={days} series={credits} testId="user-credits-chart" />
            <TimeChart title="Tool calls per day" days={days} series={tools} testId="user-tools-chart" />
          </Section>
          <Section title="Active days">
            {data.length === 0 ? (
              <p>
                No activity from {startDate} to {endDate}.
              </p>
            ) : (
              <TableScroll label="Active days">
                <table data-testid="user-days">
                  <caption>One row per day with activity (UTC days)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      <th scope="col" className="num">
                        <Term metric="user_billable_tokens">Credits</Term>
                      </th>
                      <th scope="col" className="num">
                        Tool calls
                      </th>
                      <th scope="col" className="num">
                        Sessions
                      </th>
                      <th scope="col" className="num">
                        Messages
                      </th>
                      <th scope="col" className="num">
                        Files edited
                      </th>
                      <th scope="col" className="num">
                        Commits
                      </th>
                      <th scope="col">
                        <Term metric="primary_model">Primary model</Term>
                      </th>
                      <th scope="col">
                        <Term metric="delegation_level">Delegation</Term>
                      </th>
                      <th scope="col" className="num">
                        <Term metric="autonomy_ratio">Autonomy</Term>
                      </th>
                      <th scope="col">
                        <Term metric="languages">Languages</Term>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((r) => (
                      <tr key={r.date}>
                        <th scope="row">
                          <Day day={r.date} />
                        </th>
                        <td className="num">{number(r.billable_tokens)}</td>
                        <td className="num">{number(r.tool_calls)}</td>
                        <td className="num">{number(r.sessions)}</td>
                        <td className="num">{number(r.messages)}</td>
                        <td className="num">{number(r.files_edited)}</td>
                        <td className="num">{number(r.git_commits)}</td>
                        <td>{r.primary_model ?? '—'}</td>
                        <td>{r.delegation_level}</td>
                        <td className="num">{Math.round(r.autonomy_ratio * 100) / 100}</td>
                        <td>{r.languages.join(', ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Section>
        </>
      ) : null}
    </Page>
  );
}
