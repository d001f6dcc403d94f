import { lastLevelRows } from '../../../src/client/repository-rows.js';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { number } from '../ui/format.js';
import { Field, Page, QueryState, TableScroll } from '../ui/parts.js';
import { CsvDownload } from './csv-download.js';
import { LevelChart } from './level-chart.js';
import { repositoriesByLevelQuery, repositoriesQuery, type LevelRow, type RepositoryRow } from './queries.js';
import { keepRange } from './range.js';
import { LEVEL_FIGURES, type LevelFigure, type RepoSortKey, type RepositoriesSearch } from './repositories-search.js';
import { SortHead, type SortColumn } from './sort-head.js';
import { Section, useRange } from './view.js';

type Row = ReturnType<typeof lastLevelRows<RepositoryRow>>[number];

const COLUMNS: SortColumn<RepoSortKey>[] = [
  { key: 'repository', label: 'Repository' },
  { key: 'billable_tokens', label: 'Credits', numeric: true },
  { key: 'tokens', label: 'Tokens', numeric: true },
  { key: 'sessions', label: 'Sessions', numeric: true },
  { key: 'active_people', label: 'People', numeric: true },
  { key: 'tool_calls', label: 'Tool calls', numeric: true },
  { key: 'git_commits', label: 'Commits', numeric: true },
  { key: 'git_prs_merged', label: 'Merged PRs', numeric: true },
  { key: 'credits_per_merged_pr', label: 'Credits per merged PR', numeric: true },
  { key: 'level', label: 'Level (last day)', numeric: true },
];

const FIGURES: Record<LevelFigure, string> = {
  credits_per_merged_pr: 'Credits per merged PR',
  sessions_per_pr: 'Sessions per PR',
  tool_error_rate: 'Tool error rate',
};

const levelName = (l: number | null) => (l === null ? 'No report' : `Level ${l}`);

/** Repositories: each repository's usage over the range (sortable, CSV), and whether readiness pays, level by level. */
export function RepositoriesPage() {
  const { startDate, endDate } = useRange();
  const search = useSearch({ from: '/shell/analytics/repositories' });
  const navigate = useNavigate({ from: '/analytics/repositories' });
  const repos = useQuery(repositoriesQuery({ startDate, endDate }, search.repo));
  const levels = useQuery(repositoriesByLevelQuery({ startDate, endDate }));
  const sort = search.sort ?? 'billable_tokens';
  const asc = search.asc ?? false;
  const figure = search.figure ?? 'credits_per_merged_pr';
  const rows = useMemo<Row[] | undefined>(() => (repos.data ? lastLevelRows(repos.data) : undefined), [repos.data]);
  const shown = useMemo(
    () =>
      [...(rows ?? [])].sort((a, b) => {
        const x = a[sort] ?? -1;
        const y = b[sort] ?? -1;
        // Ties in the repository's order, whichever way the column is sorted.
        if (x === y) return a.repository < b.repository ? -1 : 1;
        return (x < y ? -1 : 1) * (asc ? 1 : -1);
      }),
    [rows, sort, asc],
  );
  const bars = useMemo(() => (levels.data?.data ?? []).map((l: LevelRow) => ({ label: levelName(l.level), value: l[figure] })), [levels.data, figure]);
  const setSearch = (patch: RepositoriesSearch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  return (
    <Page title="Repositories">
      {search.repo ? (
        <p>
          Only <code>{search.repo}</code>.{' '}
          <Link to="/analytics/repositories" search={keepRange}>
            All repositories
          </Link>
        </p>
      ) : null}
      <Section
        title="Usage by repository"
        actions={<CsvDownload rows={rows} filename={`repositories-${startDate}-${endDate}.csv`} label="Download CSV (per repository)" />}
      >
        <QueryState query={repos} />
        {rows ? (
          <TableScroll label="Repositories">
            <table data-testid="repositories-table">
              <caption>
                {rows.length} repositories with usage from {startDate} to {endDate}; a session counts for the repository its SessionStart hook or telemetry
                named
              </caption>
              <thead>
                <SortHead columns={COLUMNS} sort={sort} asc={asc} onSort={setSearch}>
                  <th scope="col">Readiness</th>
                </SortHead>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.repository}>
                    <th scope="row">{r.repository}</th>
                    <td className="num">{number(r.billable_tokens)}</td>
                    <td className="num">{number(r.tokens)}</td>
                    <td className="num">{number(r.sessions)}</td>
                    <td className="num">{number(r.active_people)}</td>
                    <td className="num">{number(r.tool_calls)}</td>
                    <td className="num">{number(r.git_commits)}</td>
                    <td className="num">{number(r.git_prs_merged)}</td>
                    <td className="num">{number(r.credits_per_merged_pr)}</td>
                    <td className="num">{r.level === null ? '—' : r.level}</td>
                    <td>
                      {r.latest_report_id ? (
                        <Link to="/readiness/repository" search={{ repo: r.repository, report: r.latest_report_id }}>
                          Latest report<span className="visually-hidden">{` of ${r.repository}`}</span>
                        </Link>
                      ) : (
                        <span className="muted">no report</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </Section>
      <Section
        title="Does readiness pay?"
        actions={<CsvDownload rows={levels.data?.data} filename={`repositories-by-level-${startDate}-${endDate}.csv`} label="Download CSV (per level)" />}
      >
        <p className="muted">
          Usage grouped by the level each repository had on each day. A figure needs at least {levels.data?.meta.min_repositories ?? 3} repositories behind it;
          fewer, and it is left out.
        </p>
        <QueryState query={levels} />
        {levels.data ? (
          <>
            <form className="inline" onSubmit={(e) => e.preventDefault()}>
              <Field label="Figure">
                <select value={figure} onChange={(e) => setSearch({ figure: e.target.value as LevelFigure })}>
                  {LEVEL_FIGURES.map((f) => (
                    <option key={f} value={f}>
                      {FIGURES[f]}
                    </option>
                  ))}
                </select>
              </Field>
            </form>
            <LevelChart title={`${FIGURES[figure]} by readiness level`} bars={bars} testId="levels-chart" />
            <TableScroll label="By readiness level">
              <table data-testid="levels-table">
                <caption>
                  Usage by readiness level from {startDate} to {endDate}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Level</th>
                    <th scope="col" className="num">
                      Repositories
                    </th>
                    <th scope="col" className="num">
                      Repository-days
                    </th>
                    <th scope="col" className="num">
                      Credits
                    </th>
                    <th scope="col" className="num">
                      Credits per merged PR
                    </th>
                    <th scope="col" className="num">
                      Sessions per PR
                    </th>
                    <th scope="col" className="num">
                      Tool error rate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {levels.data.data.map((l) => (
                    <tr key={String(l.level)}>
                      <th scope="row">{levelName(l.level)}</th>
                      <td className="num">{number(l.repositories)}</td>
                      <td className="num">{number(l.days)}</td>
                      <td className="num">{number(l.billable_tokens)}</td>
                      <td className="num">{number(l.credits_per_merged_pr)}</td>
                      <td className="num">{number(l.sessions_per_pr)}</td>
                      <td className="num">{number(l.tool_error_rate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        ) : null}
      </Section>
    </Page>
  );
}
