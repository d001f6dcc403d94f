import { tmpdir } from 'node:os';
import { GitHubHost } from '../../automations/github-host.js';
import type { HostChange } from '../../automations/host.js';
import { PlainGitHost } from '../../automations/plain-git-host.js';
import { resolveTarget, type HostKind } from '../../automations/repo-target.js';
import { splitRepoUrl } from '../../core/net/repo-id.js';
import type { Forge, GeneratedFile } from './types.js';

export interface OpenOptions {
  /** The repository to open the pull request on: the origin remote by default. */
  repoUrl: string;
  githubToken?: string;
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  githubApiUrl: string;
  baseBranch?: string;
  branch: string;
  title: string;
  body: string;
  files: GeneratedFile[];
  author: { name: string; email: string };
}

export interface Opened {
  host: HostKind;
  repo: string;
  branch: string;
  baseBranch: string;
  commitSha: string;
  /** GitHub's pull request; plain Git has none, only the pushed branch. */
  pullRequest?: { number: number; url: string };
}

/** github.com and the GitHub Enterprise host the API address names are GitHub; any other host is plain Git. */
function hostKindOf(repoUrl: string, githubApiUrl: string): HostKind {
  const host = splitRepoUrl(repoUrl)?.host.toLowerCase();
  let enterprise: string | undefined;
  try {
    enterprise = new URL(githubApiUrl).hostname.toLowerCase().replace(/^api\./, '');
  } catch {
    enterprise = undefined;
  }
  return host === 'github.com' || (host !== undefined && host === enterprise) ? 'github' : 'git';
}

/**
 * The forge a remote is on: GitHub as above; GitLab for gitlab.com and a host one of whose labels is
 * `gitlab` (gitlab.acme.com, the name self-managed GitLab is given by convention); anything else is other.
 */
export function forgeOf(repoUrl: string | undefined, githubApiUrl: string): Forge {
  if (!repoUrl) return 'other';
  if (hostKindOf(repoUrl, githubApiUrl) === 'github') return 'github';
  const host = splitRepoUrl(repoUrl)?.host.toLowerCase();
  return host?.split('.').includes('gitlab') ? 'gitlab' : 'other';
}

const TIMEOUT_MS = 120_000;

/**
 * Opens the pull request through the CI automation's hosts, the ones `orgctl serve` opens CI edits
 * with: one new branch holding one commit that creates the files on the base branch. The host
 * refuses (409) when a file already exists there, so nothing is overwritten on the remote either.
 * Run by the user, with the user's credentials and network: private hosts and file:// remotes are allowed.
 */
export async function openPullRequest(o: OpenOptions): Promise<Opened> {
  const kind = hostKindOf(o.repoUrl, o.githubApiUrl);
  const host = splitRepoUrl(o.repoUrl)?.host.toLowerCase();
  const target = await resolveTarget(o.repoUrl, { hosts: new Map(host ? [[host, kind]] : []), allowPrivateNetwork: true });
  const change: HostChange = {
    files: o.files.map((f) => ({ action: 'create', path: f.path, content: f.content })),
    baseBranch: o.baseBranch,
    branch: o.branch,
    title: o.title,
    description: o.body,
  };
  if (target.kind === 'github') {
    const out = await new GitHubHost({ token: o.githubToken, baseUrl: o.githubApiUrl, timeoutMs: TIMEOUT_MS }).apply(target, change);
    return { host: 'github', repo: target.displayUrl, branch: o.branch, ...out };
  }
  const out = await new PlainGitHost({ workDir: tmpdir(), timeoutMs: TIMEOUT_MS, author: o.author }).apply(target, change);
  return { host: 'git', repo: target.displayUrl, branch: o.branch, ...out };
}
