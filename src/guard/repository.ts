import { systemClock } from '../core/clock.js';
import { runProcess } from '../core/process/run-process.js';
import { guardRequest } from './request.js';

/** How long each step may take: the hook's stdin, git, the request. At most about 4 s in all, and usually a few tens of ms. */
const STDIN_MS = 1000;
const GIT_MS = 1500;
const REQUEST_MS = 1500;

/** What the SessionStart record sends (`PUT /api/v1/telemetry/sessions/{id}/repository`). */
export interface Checkout {
  url: string;
  branch?: string;
  commit?: string;
}

/**
 * `orgctl guard repository --client CLIENT`, the SessionStart hook of `orgctl connect`: the
 * session's repository, read with git from the hook's `cwd`, recorded for the hook's `session_id`
 * (contract §19, the best source of a session's repository): the caller's session, or with `--email`
 * (managed installs, a service account's key) that person's. It never stands in the session's
 * way: it prints nothing (a SessionStart hook's stdout goes into Claude Code's context), every
 * failure is swallowed, each step is bounded, and outside a git checkout with a remote it records
 * nothing. The caller always exits 0.
 */
export async function recordRepository(connection: { url?: string; key?: string }, env: NodeJS.ProcessEnv, email?: string): Promise<void> {
  try {
    const { url, key } = connection;
    if (!url || !key) return;
    const input = await readHookInput();
    const sessionId = typeof input?.session_id === 'string' ? input.session_id : undefined;
    const cwd = typeof input?.cwd === 'string' ? input.cwd : undefined;
    if (!sessionId || !cwd) return;
    const checkout = await readCheckout(cwd, env);
    if (!checkout) return;
    await guardRequest({
      method: 'PUT',
      url,
      path: `/api/v1/telemetry/sessions/${encodeURIComponent(sessionId)}/repository`,
      key,
      json: checkout,
      ...(email !== undefined ? { query: { email } } : {}),
      timeoutMs: REQUEST_MS,
    });
  } catch {
    // Whatever went wrong, the session goes on; its repository may still come from its telemetry.
  }
}

/** The hook's JSON from stdin: read until it parses, the pipe ends, or STDIN_MS passed (a client may keep stdin open). */
function readHookInput(): Promise<Record<string, unknown> | undefined> {
  const stdin = process.stdin;
  return new Promise((resolve) => {
    let text = '';
    const done = (value: Record<string, unknown> | undefined) => {
      timer.cancel();
      stdin.removeAllListeners('data').removeAllListeners('end');
      stdin.pause();
      stdin.destroy();
      resolve(value);
    };
    const parsed = () => {
      try {
        const v: unknown = JSON.parse(text);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    };
    const timer = systemClock.timeout(() => done(parsed()), STDIN_MS, { keepAlive: false });
    stdin.setEncoding('utf8');
    stdin.on('data', (chunk: string) => {
      text += chunk;
      const v = parsed();
      if (v) done(v);
    });
    stdin.on('end', () => done(parsed()));
    stdin.on('error', () => done(undefined));
  });
}

/** git in `cwd` with its hooks and optional locks off, bounded; undefined when it fails. */
async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runProcess('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '--no-optional-locks', ...args], {
    cwd,
    env: { ...env, GIT_TERMINAL_PROMPT: '0' },
    timeoutMs: GIT_MS,
    stdout: { first: 64 * 1024 },
    stderr: 'none',
  });
  return r.exitCode === 0 && !r.timedOut ? r.stdout : undefined;
}

/**
 * The checkout `cwd` is in: its remote (`origin`, else the first remote), branch (none when
 * detached) and commit. Undefined outside a checkout, and in one without a remote: a session
 * there works in no repository the organization can name.
 */
export async function readCheckout(cwd: string, env: NodeJS.ProcessEnv): Promise<Checkout | undefined> {
  const [head, remotes] = await Promise.all([
    git(cwd, ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], env),
    git(cwd, ['config', '--local', '--get-regexp', '^remote\\..*\\.url$'], env),
  ]);
  if (head === undefined || remotes === undefined) return undefined;
  const urls = remotes
    .split('\n')
    .map((line) => /^remote\.(.+)\.url (.+)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null);
  const remote = urls.find((m) => m[1] === 'origin') ?? urls[0];
  if (!remote) return undefined;
  const [commit, branch] = head.trim().split('\n');
  return {
    url: remote[2] as string,
    ...(branch && branch !== 'HEAD' ? { branch } : {}),
    ...(commit && /^[0-9a-f]{7,64}$/.test(commit) ? { commit } : {}),
  };
}
