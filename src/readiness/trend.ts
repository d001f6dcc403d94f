import { organizationLevel, scoreReport, type Evaluation } from './levels.js';
import type { ReadinessTrend, TrendPeriod } from './schemas.js';

const DAY = 86_400_000;

/** How many days each period covers, today (UTC) included; `all` has no start. A month is 30 days, six months 182, a year 365. */
const PERIOD_DAYS: Record<TrendPeriod, number | undefined> = { '7d': 7, '1m': 30, '6m': 182, '1y': 365, all: undefined };

/**
 * Where a period starts: midnight UTC, so the same request gives the same answer all day (a
 * start that moved with every millisecond would make two reads of unchanged data differ).
 */
export function periodStart(period: TrendPeriod, nowMs: number): number | null {
  const days = PERIOD_DAYS[period];
  return days === undefined ? null : Math.floor(nowMs / DAY) * DAY - (days - 1) * DAY;
}

interface Row {
  report_id: string;
  created_at: number;
  repo_id: string;
  report: string;
  baseline: boolean;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The organization's and each repository's level and pass rate over a period, from the reports
 * in it (oldest first). After each report the organization stands at the mean of every
 * repository's latest level (rounded down) and pass rate, counting the repositories' last reports
 * from before the period, so the first point is not read as the organization starting over.
 */
export function buildTrend(rows: Row[], period: TrendPeriod, since: number | null): ReadinessTrend {
  const latest = new Map<string, { level: number; passRate: number }>();
  const organization: ReadinessTrend['organization'] = [];
  const repositories = new Map<string, ReadinessTrend['repositories'][number]>();
  for (const row of rows) {
    const s = scoreReport(JSON.parse(row.report) as Record<string, Evaluation>);
    latest.set(row.repo_id, { level: s.level, passRate: s.passRate });
    if (row.baseline) continue;
    const createdAt = Number(row.created_at);
    let repo = repositories.get(row.repo_id);
    if (!repo) repositories.set(row.repo_id, (repo = { repoId: row.repo_id, points: [] }));
    repo.points.push({ reportId: row.report_id, createdAt, level: s.level, bandLevel: s.bandLevel, passRate: s.passRate });
    const states = [...latest.values()];
    organization.push({
      at: createdAt,
      reportId: row.report_id,
      repositories: states.length,
      level: organizationLevel(states.map((x) => x.level))!,
      passRate: mean(states.map((x) => x.passRate)),
    });
  }
  return {
    period,
    since,
    organization,
    repositories: [...repositories.values()].sort((a, b) => (a.repoId < b.repoId ? -1 : a.repoId > b.repoId ? 1 : 0)),
  };
}
