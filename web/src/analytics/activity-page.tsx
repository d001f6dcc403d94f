import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Page, QueryState } from '../ui/parts.js';
import { BarTable } from './bar-table.js';
import { CsvDownload } from './csv-download.js';
import { activityQuery } from './queries.js';
import { NoData } from './no-data.js';
import { Term } from './term.js';
import { TimeChart } from './time-chart.js';
import { daily, Section, Stats, sum, useRange } from './view.js';

const CLIENTS = ['terminal-ui', 'web', 'non-interactive-cli'] as const;

/** Activity: daily, weekly and monthly active users, sessions and messages, and clients. */
export function ActivityPage() {
  const { startDate, endDate, days, team_id, teamFile } = useRange();
  const rows = useQuery(activityQuery({ startDate, endDate, team_id }));
  const data = useMemo(() => rows.data ?? [], [rows.data]);
  const users = useMemo(
    () => [
      { label: 'Daily active users', values: daily(days, data, (r) => r.daily_active_users) },
      { label: 'Weekly active users', values: daily(days, data, (r) => r.weekly_active_users) },
      { label: 'Monthly active users', values: daily(days, data, (r) => r.monthly_active_users) },
    ],
    [data, days],
  );
  const talk = useMemo(
    () => [
      { label: 'Sessions', values: daily(days, data, (r) => r.sessions) },
      { label: 'Messages', values: daily(days, data, (r) => r.messages) },
      { label: 'User messages', values: daily(days, data, (r) => r.user_messages) },
    ],
    [data, days],
  );
  const last = data[data.length - 1];
  // No activity in the range: why, and what to do, rather than charts of zeros.
  const empty = sum(data, (r) => r.daily_active_users) === 0;
  return (
    <Page title="Activity">
      <QueryState query={rows} />
      {rows.data && empty ? <NoData what="activity" startDate={startDate} endDate={endDate} /> : null}
      {rows.data && !empty ? (
        <>
          <Stats
            items={[
              { metric: 'monthly_active_users', label: `Monthly active users on ${last?.date ?? endDate}`, value: last?.monthly_active_users ?? 0 },
              { metric: 'weekly_active_users', label: `Weekly active users on ${last?.date ?? endDate}`, value: last?.weekly_active_users ?? 0 },
              { metric: 'sessions', label: 'Sessions', value: sum(data, (r) => r.sessions), testId: 'total-sessions' },
              { metric: 'messages', label: 'Messages', value: sum(data, (r) => r.messages) },
            ]}
          />
          <Section
            title="Active users per day"
            actions={<CsvDownload rows={rows.data} filename={`activity-${teamFile}${startDate}-${endDate}.csv`} label="Download CSV (per day)" />}
          >
            <p className="muted">
              <Term metric="daily_active_users">DAU</Term>, <Term metric="weekly_active_users">WAU</Term> and <Term metric="monthly_active_users">MAU</Term>;{' '}
              <Term metric="active">active</Term> means any event that day.
            </p>
            <TimeChart title="Daily, weekly and monthly active users" days={days} series={users} testId="activity-chart" />
          </Section>
          <Section title="Sessions and messages per day">
            <p className="muted">
              <Term metric="sessions">Sessions</Term>, <Term metric="messages">messages</Term> and <Term metric="user_messages">user messages</Term>.
            </p>
            <TimeChart title="Sessions and messages per day" days={days} series={talk} />
          </Section>
          <Section title="Clients">
            <BarTable
              caption={<Term metric="daily_active_users_by_client">Active user-days by client over the range (daily active users on each client, summed)</Term>}
              name="Client"
              unit="User-days"
              rows={CLIENTS.map((c) => ({ key: c, label: c, value: sum(data, (r) => r.daily_active_users_by_client[c]) }))}
            />
          </Section>
        </>
      ) : null}
    </Page>
  );
}
