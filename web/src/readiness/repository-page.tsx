import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { dateTime, When } from '../ui/dates.js';
import { Page, QueryState } from '../ui/parts.js';
import { LevelSectionCard } from './level-section.js';
import { levelSections, percent, score, type Criteria, type Report, type RepositorySummary } from './model.js';
import { criteriaQuery, reportsQuery, summaryQuery } from './queries.js';
import { TrendCard } from './trend-card.js';

const HISTORY = 30;

function ReportView({ report, criteria }: { report: Report; criteria: Criteria }) {
  const { sections, unknown } = levelSections(report, criteria);
  return (
    <>
      {sections.map((s) => (
        <LevelSectionCard key={s.level} section={s} />
      ))}
      {unknown.length > 0 ? (
        <div className="card" aria-labelledby="unknown-title">
          <h2 id="unknown-title">Criteria outside the model</h2>
          <p className="muted">Counted in the pass rate only, in no level and no pillar.</p>
          <ul>
            {unknown.map(([id, e]) => (
              <li key={id}>
                <code>{id}</code> {score(e).text} {e.rationale}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

function History({ repo, selected, onSelect }: { repo: RepositorySummary; selected: string; onSelect: (id: string) => void }) {
  return (
    <table>
      <caption>{`History: the newest ${repo.history.length} of ${repo.reports} reports`}</caption>
      <thead>
        <tr>
          <th scope="col">Evaluated</th>
          <th scope="col">Level</th>
          <th scope="col">Band level</th>
          <th scope="col">Pass rate</th>
          <th scope="col">Shown</th>
        </tr>
      </thead>
      <tbody data-testid="history">
        {repo.history.map((h) => (
          <tr key={h.reportId}>
            <td>
              <When ms={h.createdAt} />
            </td>
            <td>{`Level ${h.level}`}</td>
            <td>{h.bandLevel}</td>
            <td>{percent(h.passRate)}</td>
            <td>
              {h.reportId === selected ? (
                'shown above'
              ) : (
                <button type="button" className="secondary" onClick={() => onSelect(h.reportId)}>
                  Show <span className="visually-hidden">{`the report of ${dateTime(h.createdAt)}`}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RepositoryPage() {
  const { repo: repoId, report: wanted } = useSearch({ from: '/shell/readiness/repository' });
  const navigate = useNavigate({ from: '/readiness/repository' });
  const summary = useQuery(summaryQuery);
  const criteria = useQuery(criteriaQuery);
  const reports = useQuery({ ...reportsQuery(repoId, HISTORY), enabled: repoId !== '' });
  const repo = summary.data?.repositories.find((r) => r.repoId === repoId);
  const error = summary.error ?? criteria.error ?? reports.error;
  const shown = reports.data?.reports.find((r) => r.reportId === wanted) ?? reports.data?.reports[0];
  return (
    <Page title={repoId || 'Repository'}>
      <p>
        <Link to="/readiness">All repositories</Link>
        {repoId ? (
          <>
            {' · '}
            <Link to="/analytics/repositories" search={{ repo: repoId }}>
              Agent usage in this repository
            </Link>
          </>
        ) : null}
      </p>
      <QueryState query={{ error, isLoading: summary.isLoading || criteria.isLoading || reports.isLoading }} />
      {summary.data && !repo ? <p>No report of this repository has been uploaded.</p> : null}
      {repo && shown && criteria.data ? (
        <>
          <div className="card" aria-labelledby="report-title">
            <h2 id="report-title">{shown.reportId === repo.latest.reportId ? 'Latest report' : 'An earlier report'}</h2>
            <dl className="stats">
              <div>
                <dt>Level</dt>
                <dd data-testid="report-level">{`Level ${(repo.history.find((h) => h.reportId === shown.reportId) ?? repo.latest).level}`}</dd>
              </div>
              <div>
                <dt>Pass rate</dt>
                <dd>{percent((repo.history.find((h) => h.reportId === shown.reportId) ?? repo.latest).passRate)}</dd>
              </div>
              <div>
                <dt>Evaluated</dt>
                <dd>
                  <When ms={shown.createdAt} />
                </dd>
              </div>
              <div>
                <dt>Commit</dt>
                <dd>
                  <code>{shown.commitHash?.slice(0, 12) ?? '—'}</code> {shown.branch ? <span className="muted">on {shown.branch}</span> : null}
                </dd>
              </div>
            </dl>
            <p className="muted">
              {repo.repoUrl}
              {shown.modelUsed ? ` · evaluated by ${shown.modelUsed.id}` : ''}
              {shown.droidVersion ? ` · ${shown.droidVersion}` : ''}
            </p>
          </div>
          <TrendCard repoId={repoId} />
          <ReportView report={shown} criteria={criteria.data} />
          <History repo={repo} selected={shown.reportId} onSelect={(id) => void navigate({ search: { repo: repoId, report: id } })} />
        </>
      ) : null}
    </Page>
  );
}
