import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { systemClock } from '../clock.js';

/**
 * How much of a stream the result keeps: all of it, none (it is only streamed or not wanted),
 * its first or its last `n` bytes. The rest is read and dropped, so a chatty process never
 * blocks on a full pipe.
 */
export type Keep = 'all' | 'none' | { first: number } | { last: number };

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Ends the process group after this long (`timedOut`). */
  timeoutMs?: number;
  /** Ends the process group when aborted (`aborted`). */
  signal?: AbortSignal;
  /** How the group is ended: SIGTERM, then SIGKILL to whatever is left after this grace. 0 (the default): SIGKILL at once. */
  killGraceMs?: number;
  /**
   * After the program exited, how long its output pipes may stay open: a background process it
   * left may hold them forever. Unset: wait until they close (the timeout still applies).
   */
  drainMs?: number;
  /** Whether what is left of the group once the drain has passed is killed (default: left alone). */
  killLeftovers?: boolean;
  stdout?: Keep;
  stderr?: Keep;
  /** Each piece of output as it arrives, decoded as UTF-8 (a character split between chunks is kept whole). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Told the process group as soon as it exists; the function it returns is called once it has ended. */
  onStart?: (pgid: number) => () => void;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Where a `first` or `last` limit dropped some output. */
  truncated: { stdout: boolean; stderr: boolean };
  /** The program could not be started at all (ENOENT, EACCES, a missing cwd); nothing else is set. */
  startError?: NodeJS.ErrnoException;
}

/**
 * The one way src starts a process: a program and its arguments (a shell only when the caller
 * names one, `/bin/sh -c LINE`), in a process group of its own, so that ending it (timeout,
 * abort, leftovers) ends everything it started (`kill -PGID`), not only its leader. Never
 * rejects: a failed start is `startError`.
 */
export function runProcess(file: string, args: readonly string[], o: RunOptions = {}): Promise<ProcessResult> {
  const started = performance.now();
  const stdout = new Capture(o.stdout ?? 'all');
  const stderr = new Capture(o.stderr ?? 'all');
  let timedOut = false;
  let aborted = false;
  let killing: Promise<void> | undefined;

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(file, args, { cwd: o.cwd, env: o.env, detached: true, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    } catch (e) {
      resolve(failedStart(e, started));
      return;
    }
    const pgid = child.pid;
    const ended = pgid !== undefined && o.onStart ? o.onStart(pgid) : () => undefined;
    const end = (why: 'timeout' | 'abort') => {
      if (why === 'timeout') timedOut = true;
      else aborted = true;
      if (pgid !== undefined) killing ??= killGroup(pgid, o.killGraceMs ?? 0);
    };
    // A process runs in real time whatever a service's clock says: its timers are the system clock's.
    const timer = o.timeoutMs === undefined ? undefined : systemClock.timeout(() => end('timeout'), o.timeoutMs);
    const onAbort = () => end('abort');

    let settled = false;
    const settle = (result: ProcessResult) => {
      if (settled) return;
      settled = true;
      timer?.cancel();
      o.signal?.removeEventListener('abort', onAbort);
      ended();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };

    for (const [name, stream, keep] of [
      ['stdout', child.stdout, stdout],
      ['stderr', child.stderr, stderr],
    ] as const) {
      const decoder = new StringDecoder('utf8');
      stream?.on('data', (chunk: Buffer) => {
        keep.push(chunk);
        const text = o.onOutput ? decoder.write(chunk) : '';
        if (text) o.onOutput!(text, name);
      });
    }
    // A program that never reads stdin, or exits first, makes this write fail with EPIPE; that is its right.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(o.input);

    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => {
      // Only a failed start leaves no pid; other errors are not the end.
      if (pgid === undefined) settle(failedStart(e, started));
    });
    const closed = new Promise<boolean>((r) => child.once('close', () => r(true)));
    child.once('exit', (exitCode, signal) => {
      // With a drain, the drain bounds the rest of the wait: the timeout covered the program itself.
      if (o.drainMs !== undefined) timer?.cancel();
      void (async () => {
        await killing;
        const done =
          o.drainMs === undefined ? await closed : await Promise.race([closed, systemClock.sleep(o.drainMs, { keepAlive: false }).then(() => false)]);
        if (!done && o.killLeftovers && pgid !== undefined) signalGroup(pgid, 'SIGKILL');
        // A timeout that fired while the pipes were still open.
        await killing;
        settle({
          exitCode,
          signal,
          timedOut,
          aborted,
          durationMs: Math.round(performance.now() - started),
          stdout: stdout.text(),
          stderr: stderr.text(),
          truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
        });
      })();
    });
  });
}

const pollMs = 20;

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is left after the grace. Children
 * reparented to a slow-reaping init linger as zombies and keep the group "alive": then
 * the full grace passes, which costs time but never leaves a live process.
 */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (graceMs > 0) {
    signalGroup(pgid, 'SIGTERM');
    const deadline = performance.now() + graceMs;
    while (performance.now() < deadline) {
      if (!signalGroup(pgid, 0)) return;
      await systemClock.sleep(pollMs);
    }
  }
  signalGroup(pgid, 'SIGKILL');
}

/** False when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function failedStart(e: unknown, started: number): ProcessResult {
  const startError: NodeJS.ErrnoException = e instanceof Error ? e : new Error(String(e));
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: Math.round(performance.now() - started),
    stdout: '',
    stderr: '',
    truncated: { stdout: false, stderr: false },
    startError,
  };
}

/** What the result keeps of one stream. */
class Capture {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly keep: Keep) {}

  push(chunk: Buffer): void {
    const keep = this.keep;
    if (keep === 'none') return;
    if (keep === 'all') {
      this.chunks.push(chunk);
      return;
    }
    if ('first' in keep) {
      const room = keep.first - this.size;
      if (chunk.length > room) this.truncated = true;
      if (room <= 0) return;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(kept);
      this.size += kept.length;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Compacted once twice the limit is held, so a long stream costs linear time.
    if (this.size > 2 * keep.last) this.compact(keep.last);
  }

  private compact(last: number): void {
    const all = Buffer.concat(this.chunks);
    this.truncated = true;
    let from = all.length - last;
    // Not in the middle of a UTF-8 character: skip its continuation bytes.
    while (from < all.length && (all[from]! & 0xc0) === 0x80) from++;
    this.chunks = [all.subarray(from)];
    this.size = all.length - from;
  }

  text(): string {
    if (typeof this.keep === 'object' && 'last' in this.keep && this.size > this.keep.last) this.compact(this.keep.last);
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
