import { homedir } from 'node:os';
import { runProcess } from '../core/process/run-process.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string>;
  timeoutMs: number;
  /** Transports git may use (GIT_ALLOW_PROTOCOL), e.g. `https` or `file`. */
  protocols: string;
}

/** git could not be run, or did not finish in time. */
export class GitUnavailableError extends Error {}

// The child needs PATH to find git and, for ssh remotes, ssh; nothing else of our environment is passed on.
// eslint-disable-next-line no-restricted-properties
const inheritedPath = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';

/**
 * Runs git without a shell, with a clean environment: no credential prompts, no system config,
 * only the transports the caller allows, no HTTP redirects (a redirect could point into the
 * service's own network), and a hard timeout. Resolves with the exit code; never throws on
 * a non-zero exit.
 */
export async function runGit(args: string[], o: GitRunOptions): Promise<GitResult> {
  const env: Record<string, string> = {
    PATH: inheritedPath,
    HOME: homedir(),
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ALLOW_PROTOCOL: o.protocols,
    GIT_PROTOCOL_FROM_USER: '0',
    ...o.env,
  };
  const full = [
    '-c',
    'http.followRedirects=false',
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'init.defaultBranch=main',
    '-c',
    'credential.interactive=false',
    ...args,
  ];
  // Its own process group, so a timeout also ends what git started (ssh, remote helpers): they
  // hold git's output pipes open, and the answer would wait for them.
  const r = await runProcess('git', full, { cwd: o.cwd, env, input: o.input ?? '', timeoutMs: o.timeoutMs, stdout: 'all', stderr: { last: 16_384 } });
  if (r.startError) throw new GitUnavailableError(`git could not be started: ${r.startError.message}`);
  if (r.timedOut || r.exitCode === null) throw new GitUnavailableError(`git ${args[0]} did not finish within ${o.timeoutMs} ms (${r.signal ?? 'killed'}).`);
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}
