import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Day } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { Field, Page, QueryState, TableScroll } from '../ui/parts.js';
import { CsvDownload } from './csv-download.js';
import { userTotalsQuery, type UserTotalsRow } from './queries.js';
import { keepRange } from './range.js';
import { SortHead, type SortColumn } from './sort-head.js';
import type { SortKey, UsersSearch } from './users-search.js';
import { useRange } from './view.js';

const COLUMNS: SortColumn<SortKey>[] = [
  { key: 'user', label: 'User' },
  { key: 'role', label: 'Role' },
  { key: 'active_days', label: 'Active days', metric: 'active', numeric: true },
  { key: 'last_active_date', label: 'Last active' },
  { key: 'billable_tokens', label: 'Credits', metric: 'billable_tokens', numeric: true },
  { key: 'tool_calls', label: 'Tool calls', metric: 'tool_calls', numeric: true },
  { key: 'sessions', label: 'Sessions', metric: 'sessions', numeric: true },
  { key: 'files_edited', label: 'Files edited', metric: 'files', numeric: true },
  { key: 'git_commits', label: 'Commits', metric: 'git', numeric: true },
];

const who = (u: UserTotalsRow) => u.user_email ?? u.user_name;
function value(u: UserTotalsRow, key: SortKey): string | number {
  if (key === 'user') return who(u).toLowerCase();
  if (key === 'last_active_date') return u.last_active_date ?? '';
  return u[key];
}

/** Users: every member with their totals over the range, active or not; searchable and sortable, each with a page. */
export function UsersPage() {
  const { startDate, endDate, team_id, teamFile } = useRange();
  const search = useSearch({ from: '/shell/analytics/users' });
  const navigate = useNavigate({ from: '/analytics/users' });
  const totals = useQuery(userTotalsQuery({ startDate, endDate, team_id }));
  const sort = search.sort ?? 'billable_tokens';
  const asc = search.asc ?? false;
  const q = (search.q ?? '').trim().toLowerCase();
  const shown = useMemo(() => {
    const rows = (totals.data ?? []).filter((u) => q === '' || who(u).toLowerCase().includes(q) || u.user_name.toLowerCase().includes(q));
    return rows.sort((a, b) => {
      const x = value(a, sort);
      const y = value(b, sort);
      const c = x < y ? -1 : x > y ? 1 : who(a) < who(b) ? -1 : 1;
      return asc ? c : -c;
    });
  }, [totals.data, q, sort, asc]);
  const setSearch = (patch: UsersSearch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  return (
    <Page title="Users">
      <div className="section-head">
        <form className="inline" role="search" onSubmit={(e) => e.preventDefault()}>
          <Field label="Search users">
            <input type="search" value={search.q ?? ''} onChange={(e) => setSearch({ q: e.target.value || undefined })} />
          </Field>
        </form>
        <CsvDownload rows={totals.data} filename={`users-${teamFile}${startDate}-${endDate}.csv`} label="Download CSV (per user)" />
      </div>
      <QueryState query={totals} />
      {totals.data ? (
        <TableScroll label="Users">
          <table data-testid="users-table">
            <caption>
              {shown.length} of {totals.data.length} users, with their totals from {startDate} to {endDate}, including users without activity
              {team_id ? " (the team's members on the days they belonged to it)" : ''}
            </caption>
            <thead>
              <SortHead columns={COLUMNS} sort={sort} asc={asc} onSort={setSearch} />
            </thead>
            <tbody>
              {shown.map((u) => (
                <tr key={u.user_id}>
                  <th scope="row">
                    <Link to="/analytics/users/$userId" params={{ userId: u.user_id }} search={keepRange}>
                      {who(u)}
                    </Link>
                  </th>
                  <td>{u.role}</td>
                  <td className="num">{number(u.active_days)}</td>
                  <td>{u.last_active_date ? <Day day={u.last_active_date} /> : '—'}</td>
                  <td className="num">{number(u.billable_tokens)}</td>
                  <td className="num">{number(u.tool_calls)}</td>
                  <td className="num">{number(u.sessions)}</td>
                  <td className="num">{number(u.files_edited)}</td>
                  <td className="num">{number(u.git_commits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Page>
  );
}
