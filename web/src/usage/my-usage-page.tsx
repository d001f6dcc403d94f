import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Day } from '../ui/dates.js';
import { dayFromToday, number } from '../ui/format.js';
import { Field, Page, QueryState } from '../ui/parts.js';
import { AllowanceCard } from './allowance-card.js';
import { dailyUsageQuery } from './queries.js';
import { TodayCard } from './today-card.js';

/** My usage: the allowance, and one row per day of the range (in the URL, so a view can be shared). */
export function MyUsagePage() {
  const search = useSearch({ from: '/shell/usage' });
  const navigate = useNavigate({ from: '/usage' });
  const from = search.from ?? dayFromToday(-30);
  const to = search.to ?? dayFromToday(-1);
  const [draft, setDraft] = useState({ from, to });
  const daily = useQuery(dailyUsageQuery(from, to));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void navigate({ search: { from: draft.from, to: draft.to } });
  };
  return (
    <Page title="My usage">
      <div className="cards">
        <TodayCard />
        <AllowanceCard />
      </div>
      <form className="inline" onSubmit={submit} aria-label="Date range">
        <Field label="From">
          <input type="date" required value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </Field>
        <Field label="To">
          <input type="date" required value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </Field>
        <button type="submit">Show</button>
      </form>
      <QueryState query={daily} empty={daily.data?.data.length === 0 ? `No activity from ${from} to ${to}.` : undefined} />
      {daily.data && daily.data.data.length > 0 ? (
        <table>
          <caption>
            Daily usage from {from} to {to} (UTC days)
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Credits</th>
              <th scope="col">Sessions</th>
              <th scope="col">Messages</th>
              <th scope="col">Tool calls</th>
              <th scope="col">Files edited</th>
              <th scope="col">Commits</th>
              <th scope="col">Primary model</th>
            </tr>
          </thead>
          <tbody>
            {daily.data.data.map((r) => (
              <tr key={r.date}>
                <td>
                  <Day day={r.date} />
                </td>
                <td>{number(r.billable_tokens)}</td>
                <td>{number(r.sessions)}</td>
                <td>{number(r.messages)}</td>
                <td>{number(r.tool_calls)}</td>
                <td>{number(r.files_edited)}</td>
                <td>{number(r.git_commits)}</td>
                <td>{r.primary_model ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Page>
  );
}
