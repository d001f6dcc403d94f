import type { Db, Queryable } from '../core/db/db.js';
import { REPO_COUNTERS } from './repo-rollups.js';
import type { Range } from './store.js';

/** One repository's sums on one day (a day with usage there). */
export interface RepoDayRow {
  date: string;
  repo_id: string;
  active_people: number;
  events: number;
  sessions: number;
  credit_units: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  tool_calls: number;
  tool_errors: number;
  git_commits: number;
  git_prs_created: number;
  git_prs_merged: number;
}

/** One repository's sums over a range, with its people active in the range (each once). */
export type RepoTotalRow = Omit<RepoDayRow, 'date' | 'events'>;

/** A readiness report's criteria and when it was made, for a repository's level on a day. */
export interface LevelReport {
  repo_id: string;
  report_id: string;
  created_at: number;
  report: string;
}

/** The counters a repository's total adds up (besides its credit units): all but `events`, which only says a row is active. */
const SUMMED = REPO_COUNTERS.filter((c) => c !== 'events');

/** SQL: the repositories of the `repository` filter, as parameter `$n` (null: all). */
const only = (n: number) => `($${n}::text IS NULL OR repo_id = $${n}::text)`;

/**
 * Reads of the repository rollup (migration 0075): only the rows of the days asked for, so a report
 * costs the days and repositories it shows, never the events or sessions behind them.
 */
export const repoReportStore = {
  /** Each repository's sums per day of the range, where it had usage (events > 0). */
  async days(db: Db, r: Range, repoId: string | null): Promise<RepoDayRow[]> {
    return db.queryMany<RepoDayRow>(
      `SELECT day::text AS date, repo_id, count(*) FILTER (WHERE events > 0)::int AS active_people, sum(events)::bigint AS events,
              sum(sessions)::bigint AS sessions, sum(credit_units)::text AS credit_units, sum(input_tokens)::bigint AS input_tokens,
              sum(output_tokens)::bigint AS output_tokens, sum(cache_read_tokens)::bigint AS cache_read_tokens,
              sum(cache_write_tokens)::bigint AS cache_write_tokens, sum(tool_calls)::bigint AS tool_calls, sum(tool_errors)::bigint AS tool_errors,
              sum(git_commits)::bigint AS git_commits, sum(git_prs_created)::bigint AS git_prs_created, sum(git_prs_merged)::bigint AS git_prs_merged
       FROM analytics_repo_day WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date AND ${only(4)}
       GROUP BY day, repo_id HAVING sum(events) > 0`,
      [r.orgId, r.from, r.to, repoId],
    );
  },

  /**
   * Each repository's sums over the range and its people active in the range (each once), for the
   * repositories with usage there: one row per repository, summed by the database in one pass over
   * the range's rows, grouped by repository and person (a few hundred groups, not one per day).
   * The same sums as `days` adds up: every counter of a session-day comes with its events and a
   * session-day moves whole, so a row without events (which `days` leaves out) counts nothing.
   */
  async totals(db: Queryable, r: Range, repoId: string | null): Promise<RepoTotalRow[]> {
    return db.query<RepoTotalRow>(
      `SELECT repo_id, count(*) FILTER (WHERE active)::int AS active_people, sum(credit_units)::text AS credit_units,
              ${SUMMED.map((c) => `sum(${c})::bigint AS ${c}`).join(', ')}
       FROM (
         SELECT repo_id, bool_or(events > 0) AS active, sum(credit_units) AS credit_units, ${SUMMED.map((c) => `sum(${c}) AS ${c}`).join(', ')}
         FROM analytics_repo_day WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date AND ${only(4)} GROUP BY repo_id, user_id
       ) AS p
       GROUP BY repo_id HAVING bool_or(active)`,
      [r.orgId, r.from, r.to, repoId],
    );
  },

  /**
   * The readiness reports that give these repositories their level on the days from `fromMs` to
   * `toMs` (exclusive): each one's latest before `fromMs`, and all between. Oldest first.
   */
  async levelReports(db: Db, orgId: string, repoIds: string[], fromMs: number, toMs: number): Promise<LevelReport[]> {
    if (repoIds.length === 0) return [];
    return db.queryMany<LevelReport>(
      `SELECT repo_id, report_id::text AS report_id, created_at, report::text AS report FROM (
         SELECT repo_id, report_id, created_at, report FROM readiness_reports
         WHERE org_id = $1 AND repo_id = ANY($2::text[]) AND created_at >= $3 AND created_at < $4
         UNION ALL
         SELECT b.repo_id, b.report_id, b.created_at, b.report FROM unnest($2::text[]) AS k(repo_id)
         CROSS JOIN LATERAL (
           SELECT repo_id, report_id, created_at, report FROM readiness_reports
           WHERE org_id = $1 AND repo_id = k.repo_id AND created_at < $3 ORDER BY created_at DESC, report_id DESC LIMIT 1
         ) AS b
       ) AS x ORDER BY created_at, report_id`,
      [orgId, repoIds, fromMs, toMs],
    );
  },

  /** Each repository's newest report (of all time), for the link from its usage to its readiness page. */
  async latestReports(db: Queryable, orgId: string, repoIds: string[]): Promise<Map<string, string>> {
    if (repoIds.length === 0) return new Map();
    const rows = await db.query<{ repo_id: string; report_id: string }>(
      `SELECT k.repo_id, l.report_id::text AS report_id FROM unnest($2::text[]) AS k(repo_id)
       CROSS JOIN LATERAL (
         SELECT report_id FROM readiness_reports WHERE org_id = $1 AND repo_id = k.repo_id ORDER BY created_at DESC, report_id DESC LIMIT 1
       ) AS l`,
      [orgId, repoIds],
    );
    return new Map(rows.map((x) => [x.repo_id, x.report_id]));
  },
};
