import { createHash } from 'node:crypto';
import type { Octokit } from '@octokit/rest';
import { systemClock } from '../core/clock.js';
import { AppError, errors } from '../core/http/errors.js';
import { commitMessage, type FileEdit, type GitHost, type HostChange, type HostOutcome } from './host.js';
import type { RepoTarget } from './repo-target.js';

type GitHubTarget = Extract<RepoTarget, { kind: 'github' }>;

export interface GitHubOptions {
  token?: string;
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  baseUrl: string;
  timeoutMs: number;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const statusOf = (e: unknown) => (typeof (e as { status?: unknown })?.status === 'number' ? (e as { status: number }).status : undefined);

/** The id git gives a blob: GitHub's `sha` of a file, so an unchanged edit is seen without downloading it. */
const blobSha = (content: string) => {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

/**
 * GitHub through its REST API. The commit is made atomically with the Git Data API (tree on
 * top of the base tree, commit, then the branch ref pointing at it), so the branch never
 * exists without its commit; the pull request follows, and if it fails the branch is removed.
 */
export class GitHubHost implements GitHost<GitHubTarget> {
  constructor(private readonly o: GitHubOptions) {}

  /** Loaded on the first pull request: a server that opens none never loads the client. */
  private async client(): Promise<Octokit> {
    if (!this.o.token) throw errors.badGateway('GitHub is not configured on this server: set GITHUB_TOKEN.');
    const { Octokit } = await import('@octokit/rest');
    return new Octokit({
      auth: this.o.token,
      baseUrl: this.o.baseUrl.replace(/\/+$/, ''),
      userAgent: 'orgctl',
      log: silent,
      request: { signal: systemClock.abortAfter(this.o.timeoutMs) },
    });
  }

  async apply(t: GitHubTarget, change: HostChange): Promise<HostOutcome> {
    const gh = await this.client();
    const repo = { owner: t.owner, repo: t.repo };
    const call = <R>(what: string, p: Promise<R>, notFound?: () => AppError) =>
      p.catch((e: unknown) => {
        throw this.failure(e, what, notFound);
      });
    const repoMissing = () => errors.notFound(`Repository ${t.displayUrl}`, 'repository_not_found');

    const baseBranch = change.baseBranch ?? (await call('reading the repository', gh.repos.get(repo), repoMissing)).data.default_branch;
    let baseSha: string;
    try {
      const ref = await call('reading the base branch', gh.git.getRef({ ...repo, ref: `heads/${baseBranch}` }), () =>
        errors.notFound(`Base branch ${baseBranch}`, 'branch_not_found'),
      );
      baseSha = ref.data.object.sha;
    } catch (e) {
      // GitHub answers 404 alike for a missing branch and a missing repository: tell them apart.
      if (e instanceof AppError && e.status === 404 && change.baseBranch !== undefined) await call('reading the repository', gh.repos.get(repo), repoMissing);
      throw e;
    }

    // One file after the other: a change holds a handful of files, and the first refusal ends it.
    const entries = [];
    for (const file of change.files) entries.push(await this.entryFor(gh, repo, baseSha, baseBranch, file));
    const baseCommit = await call('reading the base commit', gh.git.getCommit({ ...repo, commit_sha: baseSha }));
    const tree = await call('creating the tree', gh.git.createTree({ ...repo, base_tree: baseCommit.data.tree.sha, tree: entries }));
    const commit = await call('creating the commit', gh.git.createCommit({ ...repo, message: commitMessage(change), tree: tree.data.sha, parents: [baseSha] }));
    await call('creating the branch', gh.git.createRef({ ...repo, ref: `refs/heads/${change.branch}`, sha: commit.data.sha }));
    const outcome: HostOutcome = { commitSha: commit.data.sha, baseBranch };
    try {
      const pr = await call(
        'opening the pull request',
        gh.pulls.create({ ...repo, title: change.title, body: change.description, head: change.branch, base: baseBranch }),
      );
      return { ...outcome, pullRequest: { number: pr.data.number, url: pr.data.html_url } };
    } catch (e) {
      await this.discard(t, change);
      throw e;
    }
  }

  /** Checks one file against the base branch (exists, kind, content) and returns its tree entry. */
  private async entryFor(gh: Octokit, repo: { owner: string; repo: string }, baseSha: string, baseBranch: string, file: FileEdit) {
    const current = await gh.repos.getContent({ ...repo, path: file.path, ref: baseSha }).then(
      (r) => r.data,
      (e) => {
        if (statusOf(e) === 404) return undefined;
        throw this.failure(e, `reading ${file.path}`);
      },
    );
    if (file.action === 'create' && current) throw errors.conflict('workflow_exists', `${file.path} already exists on ${baseBranch}; use action "edit".`);
    if (file.action !== 'create' && !current) throw errors.notFound(`Workflow file ${file.path} on ${baseBranch}`, 'workflow_not_found');
    if (current && (Array.isArray(current) || current.type !== 'file'))
      throw errors.conflict('not_a_file', `${file.path} on ${baseBranch} is not a regular file.`);
    if (file.action === 'edit' && current && !Array.isArray(current) && current.sha === blobSha(file.content ?? '')) {
      throw errors.conflict('workflow_unchanged', `${file.path} on ${baseBranch} already has this content; nothing to change.`);
    }
    return file.action === 'delete'
      ? { path: file.path, mode: '100644' as const, type: 'blob' as const, sha: null }
      : { path: file.path, mode: '100644' as const, type: 'blob' as const, content: file.content ?? '' };
  }

  async discard(t: GitHubTarget, change: HostChange): Promise<void> {
    await (await this.client()).git.deleteRef({ owner: t.owner, repo: t.repo, ref: `heads/${change.branch}` }).catch(() => undefined);
  }

  /** An AppError for a failed GitHub call: the given 404, else 502 with GitHub's own status and message. */
  private failure(e: unknown, what: string, notFound?: () => AppError): AppError {
    if (e instanceof AppError) return e;
    const status = statusOf(e);
    if (status === 404 && notFound) return notFound();
    const message = (e as Error)?.message ?? String(e);
    const detail = status === undefined ? `GitHub could not be reached while ${what}: ${message}` : `GitHub failed while ${what} (${status}): ${message}`;
    return errors.badGateway(detail, { host: 'github', ...(status === undefined ? {} : { githubStatus: status }) }, e);
  }
}
