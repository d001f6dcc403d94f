import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunCommandOptions {
  command: string;
  /** Written to stdin, which is then closed. */
  input: string;
  shell: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** After SIGTERM, how long the process group may take to exit before SIGKILL. */
  killGraceMs: number;
  /** Per stream; the rest is read and dropped so the hook never blocks on a full pipe. */
  maxOutputBytes: number;
}

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  outputTruncated: boolean;
  /** Set when the shell could not be started at all. */
  startError?: string;
}

/**
 * After the shell exits, how long to wait for its output pipes to close. A background
 * process the hook left behind may hold them open forever; the hook is done regardless.
 */
const drainMs = 200;
const pollMs = 20;

/**
 * Runs `shell -c command` in a process group of its own, so a timeout can kill everything
 * the hook started (`kill -PGID`), not only the shell. Never rejects.
 */
export function runCommand(opts: RunCommandOptions): Promise<CommandResult> {
  const started = performance.now();
  const stdout = new BoundedText(opts.maxOutputBytes);
  const stderr = new BoundedText(opts.maxOutputBytes);
  let timedOut = false;
  let killing: Promise<void> = Promise.resolve();

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(opts.shell, ['-c', opts.command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      resolve(failedStart(e, started));
      return;
    }
    let settled = false;
    const settle = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A hook that never reads stdin, or exits first, makes this write fail with EPIPE; that is its right.
    child.stdin?.on('error', () => {});
    child.stdin?.end(opts.input);

    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killing = killGroup(child.pid, opts.killGraceMs);
    }, opts.timeoutMs);

    child.on('error', (e) => {
      // Only a failed start leaves no pid; other errors (a failed kill) are not the end.
      if (child.pid === undefined) settle(failedStart(e, started));
    });

    let closed = false;
    child.on('close', () => {
      closed = true;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      void (async () => {
        await killing;
        const until = performance.now() + drainMs;
        while (!closed && performance.now() < until) await sleep(pollMs);
        settle({
          exitCode: code,
          signal,
          timedOut,
          durationMs: Math.round(performance.now() - started),
          stdout: stdout.text(),
          stderr: stderr.text(),
          outputTruncated: stdout.truncated || stderr.truncated,
        });
      })();
    });
  });
}

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is left after the grace. Children
 * reparented to a slow-reaping init linger as zombies and keep the group "alive": then
 * the full grace passes, which costs time but never leaves a live process.
 */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    if (!signalGroup(pgid, 0)) return;
    await sleep(pollMs);
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

function failedStart(e: unknown, started: number): CommandResult {
  const message = e instanceof Error ? e.message : String(e);
  return { exitCode: null, signal: null, timedOut: false, durationMs: Math.round(performance.now() - started), stdout: '', stderr: '', outputTruncated: false, startError: message };
}

/** Keeps the first `max` bytes of a stream. */
class BoundedText {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
