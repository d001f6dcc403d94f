import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api.js';
import { When } from '../ui/dates.js';
import { Field, QueryState } from '../ui/parts.js';
import { percent } from './model.js';

const PERIODS = [
  ['7d', '7 days'],
  ['1m', '1 month'],
  ['6m', '6 months'],
  ['1y', '1 year'],
  ['all', 'All'],
] as const;
type Period = (typeof PERIODS)[number][0];
/** The newest points shown; the summary line covers the whole period. */
const ROWS = 20;

const trendQuery = (period: Period) =>
  queryOptions({
    queryKey: ['readiness', 'summary', period],
    queryFn: () => call(api.GET('/api/organization/agent-readiness-summary', { params: { query: { period } } })),
  });

type Point = { at: number; level: number; passRate: number };

/** The level and pass rate over a chosen period: of the organization, or of one repository when `repoId` is given. */
export function TrendCard({ repoId }: { repoId?: string }) {
  const [period, setPeriod] = useState<Period>('1m');
  const q = useQuery(trendQuery(period));
  const trend = q.data?.trend;
  const points: Point[] | undefined = trend
    ? repoId === undefined
      ? trend.organization
      : (trend.repositories.find((r) => r.repoId === repoId)?.points ?? []).map((p) => ({ at: p.createdAt, level: p.level, passRate: p.passRate }))
    : undefined;
  const first = points?.[0];
  const last = points?.at(-1);
  return (
    <div className="card" aria-labelledby="trend-title" data-testid="trend-card">
      <h2 id="trend-title">{repoId === undefined ? 'Organization trend' : 'Trend'}</h2>
      <Field label="Period">
        <select value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
          {PERIODS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <QueryState query={q} />
      {points && first && last ? (
        <>
          <p data-testid="trend-change">
            {`From level ${first.level} at ${percent(first.passRate)} to level ${last.level} at ${percent(last.passRate)}, over ${points.length} ${points.length === 1 ? 'report' : 'reports'}.`}
          </p>
          <table>
            <caption className="visually-hidden">{`Level and pass rate after each report, newest first (at most ${ROWS})`}</caption>
            <thead>
              <tr>
                <th scope="col">After the report of</th>
                <th scope="col">Level</th>
                <th scope="col">Pass rate</th>
              </tr>
            </thead>
            <tbody data-testid="trend-points">
              {[...points]
                .reverse()
                .slice(0, ROWS)
                .map((p, i) => (
                  <tr key={`${p.at}-${i}`}>
                    <td>
                      <When ms={p.at} />
                    </td>
                    <td>{`Level ${p.level}`}</td>
                    <td>{percent(p.passRate)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </>
      ) : points ? (
        <p className="muted">No report in this period.</p>
      ) : null}
    </div>
  );
}
