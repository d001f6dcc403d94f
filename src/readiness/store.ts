import type { Db, Queryable } from '../core/db/db.js';
import { afterPosition, positionParams, type Position } from '../core/db/keyset.js';
import type { ReportUpload } from './schemas.js';

/** The key space of the repositories' upload locks (alerts/store.ts and analytics hold others). */
const REPOSITORY_LOCKS = 727140044;

export interface ReportRow {
  report_id: string;
  created_at: number;
  repo_id: string;
  repo_url: string;
  apps: Record<string, { description: string }>;
  report: Record<string, { numerator: number | null; denominator: number; rationale: string }>;
  commit_hash: string | null;
  branch: string | null;
  has_local_changes: boolean | null;
  has_non_remote_commits: boolean | null;
  model_id: string | null;
  model_reasoning_effort: 'low' | 'medium' | 'high' | 'off' | null;
  droid_version: string | null;
}

const COLUMNS = `report_id, created_at, repo_id, repo_url, apps, report, commit_hash, branch, has_local_changes,
  has_non_remote_commits, model_id, model_reasoning_effort, droid_version`;

export const readinessStore = {
  /**
   * Stores a report; the maps go in as text cast to json (postgres.js would encode a string bound
   * to a json parameter a second time), kept as sent, key order included.
   * created_at is the database clock in whole milliseconds, the same for every service process.
   */
  async insert(db: Queryable, r: { reportId: string; orgId: string; repoId: string; uploadedBy: string; body: ReportUpload }): Promise<ReportRow> {
    const b = r.body;
    const rows = await db.query<ReportRow>(
      `INSERT INTO readiness_reports (report_id, org_id, created_at, repo_id, repo_url, apps, report, commit_hash, branch,
         has_local_changes, has_non_remote_commits, model_id, model_reasoning_effort, droid_version, uploaded_by, body_bytes)
       VALUES ($1, $2, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint, $3, $4, $5::text::json, $6::text::json, $7, $8, $9, $10, $11, $12, $13, $14,
         octet_length($5::text) + octet_length($6::text))
       RETURNING ${COLUMNS}`,
      [
        r.reportId,
        r.orgId,
        r.repoId,
        b.repoUrl,
        JSON.stringify(b.apps),
        JSON.stringify(b.report),
        b.commitHash ?? null,
        b.branch ?? null,
        b.hasLocalChanges ?? null,
        b.hasNonRemoteCommits ?? null,
        b.modelUsed?.id ?? null,
        b.modelUsed?.reasoningEffort ?? null,
        b.droidVersion ?? null,
        r.uploadedBy,
      ],
    );
    return rows[0]!;
  },

  /**
   * The reports of a trend: every report since `since` (ms), and each repository's last report
   * before it (`baseline`), which says where the repository stood when the period began. Oldest first.
   */
  async trendReports(db: Db, orgId: string, since: number) {
    return db.queryMany<{ report_id: string; created_at: number; repo_id: string; report: string; baseline: boolean }>(
      `SELECT report_id, created_at, repo_id, report::text AS report, false AS baseline
         FROM readiness_reports WHERE org_id = $1 AND created_at >= $2
       UNION ALL
       SELECT report_id, created_at, repo_id, report::text AS report, true AS baseline FROM (
         SELECT DISTINCT ON (repo_id) report_id, created_at, repo_id, report
         FROM readiness_reports WHERE org_id = $1 AND created_at < $2
         ORDER BY repo_id, created_at DESC, report_id
       ) AS before
       ORDER BY created_at, report_id`,
      [orgId, since],
    );
  },

  /**
   * The criteria of the repository's newest report, if it has one (for readiness.level_changed),
   * read under a lock on the repository held to the end of the transaction: concurrent uploads of
   * one repository each compare with the one committed just before (their `created_at` is taken
   * after the lock), so no change of level is told twice or against the wrong report.
   */
  async newestReport(db: Queryable, orgId: string, repoId: string): Promise<ReportRow['report'] | undefined> {
    await db.query(`SELECT pg_advisory_xact_lock(${REPOSITORY_LOCKS}, hashtext($1 || $2))`, [orgId, repoId]);
    const rows = await db.query<{ report: ReportRow['report'] }>(
      `SELECT report FROM readiness_reports WHERE org_id = $1 AND repo_id = $2 ORDER BY created_at DESC, report_id DESC LIMIT 1`,
      [orgId, repoId],
    );
    return rows[0]?.report;
  },

  /** Each repository's newest `perRepository` reports (their criteria only), with the repository's report count. */
  async newestPerRepository(db: Db, orgId: string, perRepository: number) {
    return db.queryMany<{
      report_id: string;
      created_at: number;
      repo_id: string;
      repo_url: string;
      commit_hash: string | null;
      branch: string | null;
      report: string;
      reports: number;
    }>(
      `SELECT report_id, created_at, repo_id, repo_url, commit_hash, branch, report::text AS report, reports FROM (
         SELECT r.*, row_number() OVER w AS n, count(*) OVER (PARTITION BY repo_id) AS reports
         FROM readiness_reports r WHERE org_id = $1
         WINDOW w AS (PARTITION BY repo_id ORDER BY created_at DESC, report_id)
       ) AS ranked
       WHERE n <= $2
       ORDER BY repo_id, created_at DESC, report_id`,
      [orgId, perRepository],
    );
  },

  async position(db: Queryable, orgId: string, reportId: string): Promise<Position | undefined> {
    const rows = await db.query<{ created_at: number; report_id: string }>(
      `SELECT created_at, report_id FROM readiness_reports WHERE org_id = $1 AND report_id = $2`,
      [orgId, reportId],
    );
    return rows[0] && { createdAt: Number(rows[0].created_at), id: rows[0].report_id };
  },

  /**
   * Newest first, then by reportId; the keyset (created_at, report_id) continues exactly after
   * `after`. A page ends at `limit` reports or once it holds `maxBytes` of report maps, whichever
   * comes first, but always holds at least one report.
   */
  async list(db: Queryable, q: { orgId: string; repoId?: string; limit: number; maxBytes: number; after?: Position }): Promise<ReportRow[]> {
    return db.query<ReportRow>(
      `SELECT ${COLUMNS} FROM (
         SELECT *, row_number() OVER w AS n, sum(body_bytes) OVER w AS running
         FROM (
           SELECT * FROM readiness_reports
           WHERE org_id = $1
             AND ($2::text IS NULL OR repo_id = $2::text)
             AND ${afterPosition(3, 'report_id')}
           ORDER BY created_at DESC, report_id
           LIMIT $5
         ) AS page
         WINDOW w AS (ORDER BY created_at DESC, report_id ROWS UNBOUNDED PRECEDING)
       ) AS sized
       WHERE n = 1 OR running <= $6
       ORDER BY created_at DESC, report_id`,
      [q.orgId, q.repoId ?? null, ...positionParams(q.after), q.limit, q.maxBytes],
    );
  },
};
