import { runProcess } from '../core/process/run-process.js';

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
 * process the hook left behind may hold them open forever; the hook is done regardless,
 * and that process is left alone.
 */
const drainMs = 200;

/**
 * Runs `shell -c command` in a process group of its own, so a timeout kills everything the
 * hook started, not only the shell. Never rejects.
 */
export async function runCommand(opts: RunCommandOptions): Promise<CommandResult> {
  const r = await runProcess(opts.shell, ['-c', opts.command], {
    cwd: opts.cwd,
    env: opts.env,
    input: opts.input,
    timeoutMs: opts.timeoutMs,
    killGraceMs: opts.killGraceMs,
    drainMs,
    stdout: { first: opts.maxOutputBytes },
    stderr: { first: opts.maxOutputBytes },
  });
  const { exitCode, signal, timedOut, durationMs, stdout, stderr } = r;
  return {
    exitCode,
    signal,
    timedOut,
    durationMs,
    stdout,
    stderr,
    outputTruncated: r.truncated.stdout || r.truncated.stderr,
    ...(r.startError ? { startError: r.startError.message } : {}),
  };
}
