import { canonicalRepoId, withoutCredentials } from '../core/net/repo-id.js';

/**
 * The sources of a session's repository, best first (contract §19): the SessionStart record of
 * `orgctl connect`, OTel vcs.* attributes on a record, then on its resource, then a native event's
 * `repository`. A better source replaces a worse one; an equal or worse one changes nothing.
 */
export const REPO_RANK = { sessionStart: 1, otelRecord: 2, otelResource: 3, nativeEvent: 4 } as const;

/** A session's repository as one source tells it: the canonical id, the URL without credentials, branch, commit. */
export interface RepoHint {
  id: string;
  url: string;
  branch: string | null;
  commit: string | null;
  rank: number;
}

/** The hint a URL makes, or undefined when the text names no remote repository (a session outside a checkout has none). */
export function repoHint(url: string, branch: string | undefined | null, commit: string | undefined | null, rank: number): RepoHint | undefined {
  const id = canonicalRepoId(url);
  const clean = withoutCredentials(url);
  if (id === undefined || clean === undefined) return undefined;
  return { id, url: clean.slice(0, 2000), branch: branch ? branch.slice(0, 255) : null, commit: commit ? commit.slice(0, 64) : null, rank };
}

/** Of two hints, the one a session keeps: the better rank; at an equal rank the one heard first. */
export const betterHint = (kept: RepoHint | undefined, next: RepoHint): RepoHint => (kept === undefined || next.rank < kept.rank ? next : kept);
