import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { When } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { Field, Page, QueryState } from '../ui/parts.js';
import { HowToPanel } from './how-to-panel.js';
import { percent, type RepositorySummary } from './model.js';
import { summaryQuery } from './queries.js';
import { Trend } from './trend.js';
import { TrendCard } from './trend-card.js';

function PillarRates({ pillars }: { pillars: RepositorySummary['latest']['pillars'] }) {
  return (
    <ul className="pillars">
      {pillars
        .filter((p) => p.evaluated > 0)
        .map((p) => (
          <li key={p.pillar}>
            {p.pillar} <span className="muted">{`${p.passed}/${p.evaluated}`}</span> {percent(p.rate)}
          </li>
        ))}
    </ul>
  );
}

function RepositoriesTable({ repositories }: { repositories: RepositorySummary[] }) {
  const [filter, setFilter] = useState('');
  const shown = repositories.filter((r) => r.repoId.includes(filter.trim().toLowerCase()));
  return (
    <>
      <Field label="Search repositories">
        <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </Field>
      <table>
        <caption>Repositories, with their latest report</caption>
        <thead>
          <tr>
            <th scope="col">Repository</th>
            <th scope="col">Level</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Pillars (criteria every application passes)</th>
            <th scope="col">Last evaluation</th>
            <th scope="col">Trend</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.repoId}>
              <th scope="row">
                <Link to="/readiness/repository" search={{ repo: r.repoId }}>
                  {r.repoId}
                </Link>
                <div className="muted small">{`${r.reports} ${r.reports === 1 ? 'report' : 'reports'}`}</div>
              </th>
              <td data-testid="repo-level">{`Level ${r.latest.level}`}</td>
              <td>{percent(r.latest.passRate)}</td>
              <td>
                <PillarRates pillars={r.latest.pillars} />
              </td>
              <td>
                <When ms={r.latest.createdAt} />
              </td>
              <td>
                <Trend history={r.history} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 ? <p className="muted">No repository matches.</p> : null}
    </>
  );
}

export function ReadinessPage() {
  const summary = useQuery(summaryQuery);
  return (
    <Page title="Readiness">
      <QueryState query={summary} />
      {summary.data ? (
        <>
          <div className="card" aria-labelledby="org-level-title">
            <h2 id="org-level-title">Organization</h2>
            <dl className="stats">
              <div>
                <dt>Readiness level</dt>
                <dd data-testid="org-level">{summary.data.organization.level === null ? 'No reports yet' : `Level ${summary.data.organization.level}`}</dd>
              </div>
              <div>
                <dt>Repositories tracked</dt>
                <dd>{number(summary.data.organization.repositories)}</dd>
              </div>
              <div>
                <dt>Last evaluation</dt>
                <dd>
                  <When ms={summary.data.organization.lastEvaluatedAt} />
                </dd>
              </div>
            </dl>
            <p className="muted">
              The mean of each repository's latest level, rounded down. A repository reaches level N+1 when at least 80 % of its level-N criteria pass.
            </p>
          </div>
          {summary.data.repositories.length > 0 ? <TrendCard /> : null}
          {summary.data.repositories.length > 0 ? <RepositoriesTable repositories={summary.data.repositories} /> : null}
        </>
      ) : null}
      <HowToPanel />
    </Page>
  );
}
