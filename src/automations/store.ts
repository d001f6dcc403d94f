import type { Queryable } from '../core/db/db.js';
import { afterPosition, positionParams, type Position } from '../core/db/keyset.js';
import type { CiAction } from './host.js';
import type { HostKind } from './repo-target.js';

export interface PullRequestRow {
  id: string;
  host_kind: HostKind;
  repo_id: string;
  repo_url: string;
  number: number;
  url: string;
  action: CiAction;
  workflow_path: string;
  branch: string;
  base_branch: string;
  commit_sha: string;
  title: string;
  description: string;
  created_by: string | null;
  created_at: number;
}

export interface NewPullRequest {
  id: string;
  orgId: string;
  hostKind: HostKind;
  repoId: string;
  repoUrl: string;
  /** GitHub's number; for plain Git the service numbers them 1, 2, ... per repository. */
  number: number;
  url: string;
  action: CiAction;
  workflowPath: string;
  branch: string;
  baseBranch: string;
  commitSha: string;
  title: string;
  description: string;
  createdBy: string;
}

const COLUMNS = `id, host_kind, repo_id, repo_url, number, url, action, workflow_path, branch, base_branch, commit_sha, title, description, created_by, created_at`;

export const automationsStore = {
  /** The next number of a repository's plain-Git pull requests; the row lock orders concurrent callers. */
  async nextNumber(db: Queryable, orgId: string, repoId: string): Promise<number> {
    const rows = await db.query<{ last_number: number }>(
      `INSERT INTO ci_pull_request_numbers (org_id, repo_id, last_number) VALUES ($1, $2, 1)
       ON CONFLICT (org_id, repo_id) DO UPDATE SET last_number = ci_pull_request_numbers.last_number + 1
       RETURNING last_number`,
      [orgId, repoId],
    );
    return rows[0]!.last_number;
  },

  async insert(db: Queryable, p: NewPullRequest): Promise<PullRequestRow> {
    const rows = await db.query<PullRequestRow>(
      `INSERT INTO ci_pull_requests (id, org_id, host_kind, repo_id, repo_url, number, url, action, workflow_path, branch, base_branch,
         commit_sha, title, description, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)
       RETURNING ${COLUMNS}`,
      [
        p.id,
        p.orgId,
        p.hostKind,
        p.repoId,
        p.repoUrl,
        p.number,
        p.url,
        p.action,
        p.workflowPath,
        p.branch,
        p.baseBranch,
        p.commitSha,
        p.title,
        p.description,
        p.createdBy,
      ],
    );
    return rows[0]!;
  },

  async get(db: Queryable, orgId: string, id: string): Promise<PullRequestRow | undefined> {
    const rows = await db.query<PullRequestRow>(`SELECT ${COLUMNS} FROM ci_pull_requests WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return rows[0];
  },

  async position(db: Queryable, orgId: string, id: string): Promise<Position | undefined> {
    const rows = await db.query<{ created_at: number; id: string }>(`SELECT created_at, id FROM ci_pull_requests WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return rows[0] && { createdAt: Number(rows[0].created_at), id: rows[0].id };
  },

  /** Newest first, then by id; continues exactly after `after` (keyset on created_at, id). */
  async list(db: Queryable, q: { orgId: string; repoId?: string; limit: number; after?: Position }): Promise<PullRequestRow[]> {
    return db.query<PullRequestRow>(
      `SELECT ${COLUMNS} FROM ci_pull_requests
       WHERE org_id = $1
         AND ($2::text IS NULL OR repo_id = $2::text)
         AND ${afterPosition(3, 'id')}
       ORDER BY created_at DESC, id
       LIMIT $5`,
      [q.orgId, q.repoId ?? null, ...positionParams(q.after), q.limit],
    );
  },
};
