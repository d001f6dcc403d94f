import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { When } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { computersQuery } from '../computers/queries.js';
import { summaryQuery } from '../readiness/queries.js';
import { QueryState } from '../ui/parts.js';

/** The organization's last readiness level, as the readiness page computes it (same query, same cache entry). */
export function ReadinessCard() {
  const summary = useQuery(summaryQuery);
  const org = summary.data?.organization;
  return (
    <div className="card" aria-labelledby="overview-readiness-title">
      <h2 id="overview-readiness-title">Readiness</h2>
      <QueryState query={summary} />
      {org ? (
        <dl className="stats">
          <div>
            <dt>Level</dt>
            <dd data-testid="overview-readiness-level">{org.level === null ? 'No reports yet' : `Level ${org.level}`}</dd>
          </div>
          <div>
            <dt>Repositories</dt>
            <dd>{number(org.repositories)}</dd>
          </div>
          <div>
            <dt>Last evaluation</dt>
            <dd>{org.lastEvaluatedAt ? <When ms={org.lastEvaluatedAt} /> : 'Never'}</dd>
          </div>
        </dl>
      ) : null}
      <p>
        <Link to="/readiness">Readiness of each repository</Link>
      </p>
    </div>
  );
}

const STATUSES = ['active', 'provisioning', 'error'] as const;

/** The computers the caller may see (a member: their own), counted by status. */
export function ComputersCard() {
  const computers = useQuery(computersQuery);
  const count = (status: string) => computers.data?.computers.filter((c) => c.status === status).length ?? 0;
  return (
    <div className="card" aria-labelledby="overview-computers-title">
      <h2 id="overview-computers-title">Computers</h2>
      <QueryState query={computers} />
      {computers.data ? (
        <dl className="stats">
          {STATUSES.map((s) => (
            <div key={s}>
              <dt>{s[0]!.toUpperCase() + s.slice(1)}</dt>
              <dd data-testid={`overview-computers-${s}`}>{number(count(s))}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p>
        <Link to="/computers">All computers</Link>
      </p>
    </div>
  );
}
