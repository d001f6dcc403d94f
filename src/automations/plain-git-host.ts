import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errors } from '../core/http/errors.js';
import { splitRepoUrl } from '../core/net/repo-id.js';
import { pinnedInvocation } from './address-pin.js';
import { GitUnavailableError, runGit, type GitResult } from './git-runner.js';
import { commitMessage, parentDirs, type FileEdit, type GitHost, type HostChange, type HostOutcome } from './host.js';
import type { RepoTarget } from './repo-target.js';

type GitTarget = Extract<RepoTarget, { kind: 'git' }>;
type LocalGit = (args: string[], input?: string, env?: Record<string, string>) => Promise<GitResult>;

export interface PlainGitOptions {
  workDir: string;
  timeoutMs: number;
  author: { name: string; email: string };
}

const NOT_A_REPO = /does not appear to be a git repository|repository .* not found|not found|no such (file|device)|could not read from remote repository/i;

/**
 * Any remote the server can push to, driven through the git command. It fetches only the base
 * branch's tip into a temporary bare repository and builds the commit with plumbing commands
 * (no working tree: nothing in the repository, such as a symlink, can make it write outside
 * its directory), then pushes the new branch without force, so an existing branch is never
 * overwritten.
 */
export class PlainGitHost implements GitHost<GitTarget> {
  constructor(private readonly o: PlainGitOptions) {}

  async apply(target: GitTarget, change: HostChange): Promise<HostOutcome> {
    await mkdir(this.o.workDir, { recursive: true });
    const dir = await mkdtemp(path.join(this.o.workDir, 'orgctl-ci-'));
    const git: LocalGit = (args, input, env) =>
      this.run(target, [`--git-dir=${dir}`, ...args], input, { GIT_INDEX_FILE: path.join(dir, 'orgctl-index'), ...env });
    try {
      const baseBranch = change.baseBranch ?? (await this.defaultBranch(target));
      await local(this.run(target, ['init', '--bare', '--quiet', dir]));
      const fetched = await git(['fetch', '--depth=1', '--no-tags', '--quiet', '--', target.pushUrl, `+refs/heads/${baseBranch}:refs/heads/${baseBranch}`]);
      if (fetched.code !== 0) {
        if (/couldn't find remote ref/i.test(fetched.stderr)) throw errors.notFound(`Base branch ${baseBranch}`, 'branch_not_found');
        throw hostFailure(fetched, target);
      }
      const base = (await local(git(['rev-parse', '--verify', `refs/heads/${baseBranch}^{commit}`]))).trim();

      const paths = change.files.map((f) => f.path);
      const dirs = [...new Set(paths.flatMap(parentDirs))];
      const entries = (await local(git(['ls-tree', '-z', base, '--', ...dirs, ...paths]))).split('\0');
      const entry = (p: string) => entries.map((e) => /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(e)).find((m) => m?.[4] === p);
      for (const dirPath of dirs) {
        const d = entry(dirPath);
        if (d && d[2] !== 'tree')
          throw errors.conflict('not_a_file', `${dirPath} on ${baseBranch} is not a directory (a ${d[1] === '120000' ? 'symbolic link' : d[2]}).`);
      }
      await local(git(['read-tree', base]));
      for (const file of change.files) await this.stage(git, file, entry(file.path) ?? undefined, baseBranch);
      const tree = (await local(git(['write-tree']))).trim();
      const who = this.o.author;
      const identity = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
      const commitSha = (await local(git(['commit-tree', tree, '-p', base, '-F', '-'], commitMessage(change), identity))).trim();

      const pushed = await git(['push', '--porcelain', '--quiet', '--', target.pushUrl, `${commitSha}:refs/heads/${change.branch}`]);
      if (pushed.code !== 0) throw hostFailure(pushed, target, 'The Git host refused the push');
      return { commitSha, baseBranch };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Checks one file against the base (exists, kind, content) and stages it in the temporary index. */
  private async stage(git: LocalGit, file: FileEdit, existing: RegExpExecArray | undefined, baseBranch: string): Promise<void> {
    if (file.action === 'create' && existing) throw errors.conflict('workflow_exists', `${file.path} already exists on ${baseBranch}; use action "edit".`);
    if (file.action !== 'create' && !existing) throw errors.notFound(`Workflow file ${file.path} on ${baseBranch}`, 'workflow_not_found');
    if (existing && existing[2] !== 'blob') throw errors.conflict('not_a_file', `${file.path} on ${baseBranch} is not a regular file.`);
    if (file.action === 'delete') {
      // Mode 0 removes the entry; --force-remove would want a working tree.
      await local(git(['update-index', '--index-info'], `0 ${'0'.repeat(40)}\t${file.path}\n`));
      return;
    }
    const blob = (await local(git(['hash-object', '-w', '--stdin'], file.content))).trim();
    if (existing && existing[3] === blob)
      throw errors.conflict('workflow_unchanged', `${file.path} on ${baseBranch} already has this content; nothing to change.`);
    const mode = existing?.[1] === '100755' ? '100755' : '100644';
    await local(git(['update-index', '--add', '--cacheinfo', `${mode},${blob},${file.path}`]));
  }

  async discard(target: GitTarget, change: HostChange): Promise<void> {
    await this.run(target, ['push', '--quiet', '--', target.pushUrl, `:refs/heads/${change.branch}`]).catch(() => undefined);
  }

  /** The remote's HEAD branch; 404 when the remote is no repository, 502 when it cannot be reached. */
  private async defaultBranch(target: GitTarget): Promise<string> {
    const res = await this.run(target, ['ls-remote', '--symref', '--', target.pushUrl, 'HEAD']);
    if (res.code !== 0) throw hostFailure(res, target);
    const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(res.stdout);
    if (!m)
      throw new AppError('branch_not_found', `${target.displayUrl} has no default branch (it has no commits yet); nothing to open a pull request against.`);
    return m[1]!;
  }

  private async run(target: GitTarget, args: string[], input?: string, env?: Record<string, string>): Promise<GitResult> {
    try {
      const pinned = pinnedInvocation(target.pin);
      return await runGit([...pinned.config, ...args], { input, env: { ...env, ...pinned.env }, timeoutMs: this.o.timeoutMs, protocols: target.protocols });
    } catch (e) {
      if (e instanceof GitUnavailableError) throw errors.badGateway(`The Git host ${target.displayUrl} failed: ${e.message}`, undefined, e);
      throw e;
    }
  }
}

/** A git command on the temporary repository only: its failure is ours (500), not the host's. */
async function local(result: Promise<GitResult>): Promise<string> {
  const r = await result;
  if (r.code !== 0) throw new Error(`git failed on the local clone: ${r.stderr.trim()}`);
  return r.stdout;
}

/** 404 when the remote is no repository, else 502 with git's own message (credentials removed). */
function hostFailure(r: GitResult, target: GitTarget, what = `The Git host failed`) {
  const message = redact(r.stderr.trim() || `git exited with ${r.code}`, target);
  if (NOT_A_REPO.test(r.stderr) && !/remote rejected|pre-receive|hook declined/i.test(r.stderr)) {
    return errors.notFound(`Repository ${target.displayUrl}`, 'repository_not_found');
  }
  return errors.badGateway(`${what}: ${message}`, { host: target.host || 'file', gitMessage: message });
}

function redact(text: string, target: GitTarget): string {
  // ssh names the login it tried (`TOKEN@host: Permission denied`): a user the display leaves out goes too.
  const userinfo = splitRepoUrl(target.pushUrl)?.userinfo;
  const shown = text.split(target.pushUrl).join(target.displayUrl);
  const withoutUser = userinfo && !target.displayUrl.includes(`${userinfo}@`) ? shown.split(`${userinfo}@`).join('') : shown;
  return withoutUser.replace(/(\w+:\/\/)[^/@\s]+@/g, '$1');
}
