import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { dayStartMs, DAY_MS, utcDay } from '../core/days.js';
import { errors } from '../core/http/errors.js';
import { canonicalRepoId, notARepoUrl } from '../core/net/repo-id.js';
import type { RepoHint } from '../events/repository.js';
import { tokenSums } from './credits.js';
import { reportRange } from './dates.js';
import { repoReportStore as store, type RepoDayRow } from './repo-report-store.js';
import { levelRows, levelsByDay, repositoryRows } from './repo-reports.js';
import { MIN_REPOSITORIES, type RepositoriesQuery } from './repo-schemas.js';
import { writeRepoRollups } from './repo-store.js';

export interface RepositoryAnalyticsDeps {
  db: Db;
  clock?: Clock;
}

const byDateThenKey = (x: { date: string; group_key: string }, y: { date: string; group_key: string }) =>
  x.date < y.date ? -1 : x.date > y.date ? 1 : x.group_key < y.group_key ? -1 : x.group_key > y.group_key ? 1 : 0;

/**
 * Analytics by repository (docs/analytics.md, Repositories): the attribution of sessions to
 * repositories, and the reports read from the repository rollup written with every batch.
 */
export class RepositoryAnalytics {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor({ db, clock = systemClock }: RepositoryAnalyticsDeps) {
    this.db = db;
    this.clock = clock;
  }

  /**
   * Records a session's repository as one source tells it (the SessionStart record of `orgctl
   * connect`); when it is better than what was kept, the session's usage so far moves to it.
   */
  attributeSession(orgId: string, userId: string, sessionId: string, hint: RepoHint): Promise<void> {
    return this.db.transaction(async () => writeRepoRollups(this.db, orgId, { sessionDays: [], hints: [{ userId, sessionId, hint }] }));
  }

  private range(orgId: string, q: { startDate: string; endDate: string; repository?: string | undefined }) {
    const range = reportRange(orgId, q, utcDay(this.clock.now().getTime()));
    let repoId: string | null = null;
    if (q.repository !== undefined) {
      repoId = canonicalRepoId(q.repository) ?? null;
      if (repoId === null) throw errors.invalid([{ path: '/repository', message: notARepoUrl(q.repository) }], 'querystring');
    }
    return { ...range, repoId };
  }

  /** GET /analytics/repositories: each repository's usage over the range and its level on each day. */
  async report(orgId: string, q: RepositoriesQuery) {
    const { meta, r, days, repoId } = this.range(orgId, q);
    if (!r) return { data: [], meta };
    const totals = await store.totals(this.db, r, repoId);
    const repos = totals.map((x) => x.repo_id).sort();
    const [reports, latest] = await Promise.all([this.levelReports(orgId, repos, days), store.latestReports(this.db, orgId, repos)]);
    return { data: repositoryRows(totals, latest, days, levelsByDay(reports, days)), meta };
  }

  /** GET /analytics/repositories/readiness: usage grouped by the level each repository had each day. */
  async byLevel(orgId: string, q: RepositoriesQuery) {
    const { meta, r, days, repoId } = this.range(orgId, q);
    const withMin = { ...meta, min_repositories: MIN_REPOSITORIES };
    if (!r) return { data: levelRows([], [], () => null), meta: withMin };
    const rows = await store.days(this.db, r, repoId);
    const reports = await this.levelReports(orgId, [...new Set(rows.map((x) => x.repo_id))].sort(), days);
    return { data: levelRows(rows, days, levelsByDay(reports, days)), meta: withMin };
  }

  private levelReports(orgId: string, repos: string[], days: string[]) {
    return store.levelReports(this.db, orgId, repos, dayStartMs(days[0]!), dayStartMs(days[days.length - 1]!) + DAY_MS);
  }

  /** The repository day rows of /tokens and /activity grouped by repository (optionally one repository). */
  async groupedDays(orgId: string, r: { orgId: string; from: string; to: string }, repository: string | undefined): Promise<RepoDayRow[]> {
    const repoId = repository === undefined ? null : (canonicalRepoId(repository) ?? null);
    if (repository !== undefined && repoId === null) throw errors.invalid([{ path: '/repository', message: notARepoUrl(repository) }], 'querystring');
    return store.days(this.db, { ...r, orgId }, repoId);
  }
}

/** /tokens?group_by=repository rows: one per repository and day with usage, credits rounded once per row. */
export const tokensByRepository = (rows: RepoDayRow[]) => rows.map((r) => ({ date: r.date, group_key: r.repo_id, ...tokenSums(r) })).sort(byDateThenKey);

/** /activity?group_by=repository rows: people active in each repository each day. */
export const activityByRepository = (rows: RepoDayRow[]) =>
  rows.map((r) => ({ date: r.date, group_key: r.repo_id, daily_active_users: r.active_people })).sort(byDateThenKey);
