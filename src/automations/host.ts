import type { RepoTarget } from './repo-target.js';

export type CiAction = 'create' | 'edit' | 'delete';

/** One workflow change, fully decided by the service: the host only carries it out. */
export interface WorkflowChange {
  action: CiAction;
  workflowPath: string;
  content?: string;
  baseBranch?: string;
  branch: string;
  title: string;
  description: string;
}

export interface HostOutcome {
  commitSha: string;
  baseBranch: string;
  /** Set by hosts with their own pull requests (GitHub); plain Git leaves them to the service. */
  pullRequest?: { number: number; url: string };
}

/**
 * A Git host: makes one branch holding one commit with the change. It throws AppErrors:
 * 404 repository, base branch or (edit, delete) file missing; 409 (create) file exists or
 * (edit) content unchanged; 502 the host failed, with its message.
 */
export interface GitHost<T extends RepoTarget = RepoTarget> {
  apply(target: T, change: WorkflowChange): Promise<HostOutcome>;
  /** Removes a branch made by apply, when what follows it failed (best effort). */
  discard(target: T, change: WorkflowChange): Promise<void>;
}

export const commitMessage = (c: WorkflowChange) => (c.description ? `${c.title}\n\n${c.description}\n` : `${c.title}\n`);
