import type { RepoTarget } from './repo-target.js';

export type CiAction = 'create' | 'edit' | 'delete';

/** One file of a change: created (must not exist), edited (must exist and differ) or deleted. */
export interface FileEdit {
  action: CiAction;
  path: string;
  content?: string;
}

/**
 * One change, fully decided by the caller (a CI workflow edit, the files of `readiness fix`): the
 * host only carries it out, as one commit on one new branch.
 */
export interface HostChange {
  files: FileEdit[];
  baseBranch?: string;
  branch: string;
  title: string;
  description: string;
}

export interface HostOutcome {
  commitSha: string;
  baseBranch: string;
  /** Set by hosts with their own pull requests (GitHub); plain Git leaves them to the caller. */
  pullRequest?: { number: number; url: string };
}

/**
 * A Git host: makes one branch holding one commit with the change. It throws AppErrors:
 * 404 repository, base branch or (edit, delete) file missing; 409 (create) file exists or
 * (edit) content unchanged; 502 the host failed, with its message.
 */
export interface GitHost<T extends RepoTarget = RepoTarget> {
  apply(target: T, change: HostChange): Promise<HostOutcome>;
  /** Removes a branch made by apply, when what follows it failed (best effort). */
  discard(target: T, change: HostChange): Promise<void>;
}

export const commitMessage = (c: HostChange) => (c.description ? `${c.title}\n\n${c.description}\n` : `${c.title}\n`);

/** Every directory above `file`, outermost first: `a/b/c` -> `a`, `a/b`. */
export const parentDirs = (file: string) =>
  file
    .split('/')
    .slice(0, -1)
    .map((_, i, parts) => parts.slice(0, i + 1).join('/'));
