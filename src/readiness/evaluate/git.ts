import { runProcess } from '../../core/process/run-process.js';
import { shownRepoText } from '../../core/net/repo-id.js';

/** The largest output read from one git command: a 10,000-file listing is about 0.5 MiB. */
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * Runs git with an argument array (never a shell) in `dir`. Hooks and pagers are off and the
 * optional index refresh is disabled, so reading a checkout never writes into it.
 */
export async function git(dir: string, args: string[], opts: { allowFailure?: boolean } = {}): Promise<string> {
  const r = await runProcess('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '--no-optional-locks', ...args], {
    cwd: dir,
    timeoutMs: 60_000,
    killGraceMs: 1000,
    stdout: { first: MAX_BUFFER },
    stderr: { last: 4096 },
  });
  const failure =
    r.startError?.message ??
    (r.timedOut
      ? 'did not finish within 60 s'
      : r.truncated.stdout
        ? `printed more than ${MAX_BUFFER} bytes`
        : r.exitCode !== 0
          ? `exited with ${r.exitCode ?? r.signal}: ${r.stderr.trim()}`
          : undefined);
  if (failure === undefined) return r.stdout;
  if (opts.allowFailure) return '';
  throw new Error(`git ${args.join(' ')} failed in ${dir}: ${failure}`);
}

export interface GitFacts {
  commitHash: string | undefined;
  branch: string | undefined;
  hasLocalChanges: boolean;
  hasNonRemoteCommits: boolean;
  /** The origin remote without credentials: a CI checkout's origin often holds an access token. */
  originUrl: string | undefined;
  /** Unix seconds of the HEAD commit: the reference time of every age check, so a commit always gives the same report. */
  headTime: number | undefined;
}

export async function gitFacts(dir: string): Promise<GitFacts> {
  const [head, branch, status, origin, time] = await Promise.all([
    git(dir, ['rev-parse', '--verify', '-q', 'HEAD'], { allowFailure: true }),
    git(dir, ['symbolic-ref', '-q', '--short', 'HEAD'], { allowFailure: true }),
    git(dir, ['status', '--porcelain', '--untracked-files=normal'], { allowFailure: true }),
    git(dir, ['remote', 'get-url', 'origin'], { allowFailure: true }),
    git(dir, ['log', '-1', '--format=%ct'], { allowFailure: true }),
  ]);
  const commitHash = head.trim() || undefined;
  // Commits reachable from HEAD and from no remote-tracking branch were never pushed.
  const unpushed = commitHash ? await git(dir, ['rev-list', '--max-count=1', 'HEAD', '--not', '--remotes'], { allowFailure: true }) : '';
  const seconds = Number(time.trim());
  return {
    commitHash,
    branch: branch.trim() || undefined,
    hasLocalChanges: status.trim() !== '',
    hasNonRemoteCommits: unpushed.trim() !== '',
    originUrl: shownRepoUrl(origin.trim()) || undefined,
    headTime: Number.isFinite(seconds) && seconds > 0 ? seconds : undefined,
  };
}

/**
 * A repository URL as the report may carry it (printed, uploaded, shown to every role of the
 * organization): without credentials, query or fragment, also where the parser cannot read it
 * (a local path, a mistyped URL, which the service refuses anyway).
 */
export const shownRepoUrl = shownRepoText;
