import { spawn } from 'node:child_process';
import { homedir } from 'node:os';

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
export function runGit(args: string[], o: GitRunOptions): Promise<GitResult> {
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
  const full = ['-c', 'http.followRedirects=false', '-c', 'core.hooksPath=/dev/null', '-c', 'init.defaultBranch=main', '-c', 'credential.interactive=false', ...args];
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout also ends what git started (ssh, remote helpers): they
    // hold git's output pipes open, and the answer would wait for them.
    const child = spawn('git', full, { cwd: o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, o.timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-16_384)));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new GitUnavailableError(`git could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut || code === null) reject(new GitUnavailableError(`git ${args[0]} did not finish within ${o.timeoutMs} ms (${signal ?? 'killed'}).`));
      else resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? '');
  });
}
