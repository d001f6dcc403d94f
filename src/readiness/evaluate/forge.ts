import { splitRepoUrl } from '../../core/net/repo-id.js';

/** What the forge checks read from GitHub. Each call may throw; the check turns that into its rationale. */
export interface Forge {
  /** `owner/repo` on the forge. */
  name: string;
  defaultBranch(): Promise<string>;
  /** Whether rules or classic protection on the branch require a review before merging. */
  branchRequiresReview(branch: string): Promise<{ requiresReview: boolean; via: string }>;
  secretScanning(): Promise<string | undefined>;
  codeScanningAnalyses(): Promise<number>;
  /** The recently merged pull requests, newest first, with their head commit. */
  mergedPulls(limit: number): Promise<{ number: number; headSha: string; mergedAt: string }[]>;
  /** Minutes from the first check run's start to the last one's end on a commit; undefined without runs. */
  checkMinutes(sha: string): Promise<number | undefined>;
  releaseDates(): Promise<string[]>;
  /** Logins of bots that reviewed or commented on recent pull requests. */
  reviewBots(pulls: number[]): Promise<string[]>;
  labels(): Promise<string[]>;
  openIssues(): Promise<{ title: string; labels: number; updatedAt: string }[]>;
  /** Pull requests opened by Dependabot or Renovate, any state. */
  dependencyPulls(): Promise<number>;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** owner/repo of a GitHub URL (https, ssh or scp-like) on `host`; undefined for anything else. */
export function githubRepoOf(url: string, host: string): string | undefined {
  const parts = splitRepoUrl(url.trim());
  if (!parts || parts.host.toLowerCase() !== host.toLowerCase()) return undefined;
  const m = /^\/?([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(parts.path);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

export function githubForge(opts: {
  repoUrl: string | undefined;
  token: string | undefined;
  apiUrl: string;
  timeoutMs?: number;
}): Forge | { unavailable: string } {
  if (!opts.token) return { unavailable: 'no GitHub token (GITHUB_TOKEN or --github-token) to read the forge' };
  const apiHost = new URL(opts.apiUrl).hostname;
  const host = apiHost === 'api.github.com' ? 'github.com' : apiHost;
  const name = opts.repoUrl ? githubRepoOf(opts.repoUrl, host) : undefined;
  if (!name) return { unavailable: `the repository URL ${opts.repoUrl ?? '(none)'} is not a repository on ${host}` };
  const [owner, repo] = name.split('/') as [string, string];
  const r = { owner, repo };
  // The client is loaded only for an evaluation that reads the forge: `orgctl` itself starts without it.
  const client = import('@octokit/rest').then(
    ({ Octokit }) =>
      new Octokit({
        auth: opts.token,
        baseUrl: opts.apiUrl.replace(/\/+$/, ''),
        userAgent: 'orgctl-readiness',
        log: silent,
        request: { timeout: opts.timeoutMs ?? 20_000 },
      }),
  );
  return {
    name,
    defaultBranch: async () => (await (await client).repos.get(r)).data.default_branch,
    async branchRequiresReview(branch) {
      const rules = (await (await client).repos.getBranchRules({ ...r, branch })).data;
      if (rules.some((x) => x.type === 'pull_request')) return { requiresReview: true, via: `ruleset rule pull_request on ${branch}` };
      try {
        const p = (await (await client).repos.getBranchProtection({ ...r, branch })).data;
        if (p.required_pull_request_reviews) return { requiresReview: true, via: `branch protection on ${branch} requires pull request reviews` };
        return { requiresReview: false, via: `branch protection on ${branch} without required reviews` };
      } catch (e) {
        if ((e as { status?: number }).status === 404)
          return { requiresReview: false, via: `no ruleset requiring pull requests and no branch protection on ${branch}` };
        throw e;
      }
    },
    secretScanning: async () => (await (await client).repos.get(r)).data.security_and_analysis?.secret_scanning?.status,
    codeScanningAnalyses: async () => (await (await client).codeScanning.listRecentAnalyses({ ...r, per_page: 10 })).data.length,
    async mergedPulls(limit) {
      const pulls = (await (await client).pulls.list({ ...r, state: 'closed', sort: 'updated', direction: 'desc', per_page: 50 })).data;
      return pulls
        .filter((p) => p.merged_at)
        .slice(0, limit)
        .map((p) => ({ number: p.number, headSha: p.head.sha, mergedAt: p.merged_at! }));
    },
    async checkMinutes(sha) {
      const runs = (await (await client).checks.listForRef({ ...r, ref: sha, per_page: 100 })).data.check_runs;
      const starts = runs
        .map((x) => x.started_at)
        .filter((x): x is string => !!x)
        .map(Date.parse);
      const ends = runs
        .map((x) => x.completed_at)
        .filter((x): x is string => !!x)
        .map(Date.parse);
      if (!starts.length || !ends.length) return undefined;
      return (Math.max(...ends) - Math.min(...starts)) / 60_000;
    },
    releaseDates: async () => (await (await client).repos.listReleases({ ...r, per_page: 50 })).data.map((x) => x.published_at ?? x.created_at),
    async reviewBots(pulls) {
      const bots = new Set<string>();
      for (const n of pulls) {
        const [reviews, comments] = await Promise.all([
          (await client).pulls.listReviews({ ...r, pull_number: n, per_page: 100 }),
          (await client).issues.listComments({ ...r, issue_number: n, per_page: 100 }),
        ]);
        for (const x of [...reviews.data, ...comments.data]) if (x.user?.type === 'Bot') bots.add(x.user.login);
      }
      return [...bots].sort();
    },
    labels: async () => (await (await client).issues.listLabelsForRepo({ ...r, per_page: 100 })).data.map((l) => l.name),
    async openIssues() {
      const issues = (await (await client).issues.listForRepo({ ...r, state: 'open', per_page: 100 })).data.filter((i) => !i.pull_request);
      return issues.map((i) => ({ title: i.title, labels: i.labels.length, updatedAt: i.updated_at }));
    },
    async dependencyPulls() {
      const pulls = (await (await client).pulls.list({ ...r, state: 'all', per_page: 100 })).data;
      return pulls.filter((p) => /dependabot|renovate/i.test(p.user?.login ?? '')).length;
    },
  };
}

export const apiFailure = (e: unknown) => {
  const status = (e as { status?: number }).status;
  return `the GitHub API answered ${status ?? 'with an error'}${status === 403 || status === 404 ? ' (the token may lack access)' : ''}: ${((e as Error).message ?? '').slice(0, 120)}`;
};
