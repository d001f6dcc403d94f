import { noOutbox, type Outbox } from '../core/outbox.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import { startPosition } from '../core/db/keyset.js';
import type { GitHost, HostChange } from './host.js';
import { repoIdOf, resolveTarget, type RepoTarget, type TargetPolicy } from './repo-target.js';
import type { CiEditBody, CiEditResult, PullRequest, PullRequestQuery } from './schemas.js';
import { automationsStore as store, type PullRequestRow } from './store.js';
import { checkBranchName, checkWorkflowContent, checkWorkflowPath } from './workflow-request.js';

const VERB = { create: 'Add', edit: 'Update', delete: 'Remove' } as const;

export interface GitHosts {
  git: GitHost<Extract<RepoTarget, { kind: 'git' }>>;
  github: GitHost<Extract<RepoTarget, { kind: 'github' }>>;
}

export interface AutomationsDeps {
  db: Db;
  /** The hosts pull requests are opened on, by kind. */
  hosts: GitHosts;
  /** Which repository addresses may be used (CI_GIT_HOSTS, CI_ALLOW_PRIVATE_NETWORK). */
  policy: TargetPolicy;
  /** Where an opened pull request is told of (webhooks); by default nowhere. */
  outbox?: Outbox;
}

/** `ci/<action>-<workflow>-<8 hex>`: readable, and unique without asking the host (32 random bits). */
export function branchName(action: string, workflowPath: string): string {
  const base = workflowPath.slice(workflowPath.lastIndexOf('/') + 1).replace(/\.ya?ml$/, '');
  const slug =
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'workflow';
  return `ci/${action}-${slug}-${randomBytes(4).toString('hex')}`;
}

export class AutomationsService {
  private readonly db: Db;
  private readonly hosts: GitHosts;
  private readonly policy: TargetPolicy;

  private readonly outbox: Outbox;

  constructor({ db, hosts, policy, outbox = noOutbox }: AutomationsDeps) {
    this.db = db;
    this.hosts = hosts;
    this.policy = policy;
    this.outbox = outbox;
  }

  /**
   * Opens a pull request that creates, edits or deletes one workflow: one new branch, one commit.
   * Everything the request says is checked before the host is contacted; `linkBase` is where the
   * links of pull requests it records itself (plain Git) point (the request's storedLinkUrl).
   */
  async editWorkflow(actor: Principal, body: CiEditBody, linkBase: string): Promise<CiEditResult> {
    checkWorkflowPath(body.workflowPath);
    if (body.action === 'delete' && body.content !== undefined) throw errors.invalid([{ path: '/content', message: 'must be absent for action delete' }]);
    if (body.action !== 'delete') {
      if (body.content === undefined) throw errors.invalid([{ path: '/content', message: `is required for action ${body.action}` }]);
      checkWorkflowContent(body.content);
    }
    if (body.baseBranch !== undefined) checkBranchName(body.baseBranch, 'baseBranch');
    const target = await resolveTarget(body.repoUrl, this.policy);

    const change: HostChange = {
      files: [{ action: body.action, path: body.workflowPath, content: body.content }],
      baseBranch: body.baseBranch,
      branch: branchName(body.action, body.workflowPath),
      title: body.title ?? `${VERB[body.action]} CI workflow ${body.workflowPath}`,
      description: body.description ?? `${VERB[body.action]} \`${body.workflowPath}\`.\n\nOpened by orgctl for ${actor.email ?? actor.name}.`,
    };
    const outcome = target.kind === 'github' ? await this.hosts.github.apply(target, change) : await this.hosts.git.apply(target, change);

    const id = randomUUID();
    let row: PullRequestRow;
    try {
      row = await this.db.transaction(async () => {
        const stored = await store.insert(this.db, {
          id,
          orgId: actor.orgId,
          hostKind: target.kind,
          repoId: target.repoId,
          repoUrl: target.displayUrl,
          number: outcome.pullRequest?.number ?? (await store.nextNumber(this.db, actor.orgId, target.repoId)),
          url: outcome.pullRequest?.url ?? `${linkBase}/api/v0/automations/ci/pull-requests/${id}`,
          action: body.action,
          workflowPath: body.workflowPath,
          branch: change.branch,
          baseBranch: outcome.baseBranch,
          commitSha: outcome.commitSha,
          title: change.title,
          description: change.description,
          createdBy: actor.id,
        });
        await this.outbox.emit(actor.orgId, 'ci.pull_request_opened', {
          repoUrl: stored.repo_url,
          action: stored.action,
          workflowPath: stored.workflow_path,
          url: stored.url,
          number: stored.number,
          branch: stored.branch,
          baseBranch: stored.base_branch,
          title: stored.title,
        });
        return stored;
      });
    } catch (e) {
      // Unrecorded, the branch would be an orphan nobody can find: take it back.
      if (target.kind === 'github') await this.hosts.github.discard(target, change);
      else await this.hosts.git.discard(target, change);
      throw e;
    }
    return {
      pullRequest: { url: row.url, number: row.number, branch: row.branch, baseBranch: row.base_branch, title: row.title },
      commitSha: row.commit_sha,
      action: row.action,
      workflowPath: row.workflow_path,
    };
  }

  async listPullRequests(orgId: string, q: PullRequestQuery): Promise<PullRequest[]> {
    const after = await startPosition(q.startAfter, (id) => store.position(this.db, orgId, id), 'pull request');
    const repoId = q.repoUrl === undefined ? undefined : repoIdOf(q.repoUrl);
    const rows = await store.list(this.db, { orgId, repoId, after, limit: Math.min(q.limit ?? 20, 100) });
    return rows.map(toPullRequest);
  }

  async getPullRequest(orgId: string, id: string): Promise<PullRequest> {
    const row = await store.get(this.db, orgId, id.toLowerCase());
    if (!row) throw errors.notFound('Pull request', 'pull_request_not_found');
    return toPullRequest(row);
  }
}

const toPullRequest = (r: PullRequestRow): PullRequest => ({
  id: r.id,
  host: r.host_kind,
  repoUrl: r.repo_url,
  repoId: r.repo_id,
  number: r.number,
  url: r.url,
  action: r.action,
  workflowPath: r.workflow_path,
  branch: r.branch,
  baseBranch: r.base_branch,
  commitSha: r.commit_sha,
  title: r.title,
  description: r.description,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
});
