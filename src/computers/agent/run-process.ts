import { runProcess } from '../../core/process/run-process.js';

export interface StepProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The last 16 KiB, for the step's error. */
  stderr: string;
}

/**
 * A command of a step (git clone, an install), streaming its output. Aborting ends its whole
 * process group (npm and the scripts it starts): SIGTERM, SIGKILL 3 s later. It settles when
 * the program exits: a background process it left holding the output pipes gets a second of
 * drain and is then killed with the group, so a step can never wait on it forever. Rejects
 * only when the program cannot be started.
 */
export async function runStepProcess(
  argv: readonly [string, ...string[]],
  opts: { cwd: string; signal: AbortSignal; onOutput: (chunk: string) => void; env: NodeJS.ProcessEnv; onStart?: (pgid: number) => () => void },
): Promise<StepProcessResult> {
  const [file, ...args] = argv;
  const r = await runProcess(file, args, {
    cwd: opts.cwd,
    env: opts.env,
    signal: opts.signal,
    onOutput: (chunk) => opts.onOutput(chunk),
    onStart: opts.onStart,
    killGraceMs: 3000,
    drainMs: 1000,
    killLeftovers: true,
    stdout: 'none',
    stderr: { last: 16_384 },
  });
  if (r.startError) throw r.startError;
  return { exitCode: r.exitCode, signal: r.signal, stderr: r.stderr };
}
