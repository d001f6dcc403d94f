import { spawn } from 'node:child_process';

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** How long output may still arrive after the command exited (a child may hold the pipes). */
const DRAIN_MS = 1000;

/**
 * Runs a shell command line in its own process group, streaming its output. Aborting kills the
 * whole group (npm and the scripts it starts), first politely, then for good. It settles when the
 * command exits: a background process it left holding the output pipes gets a short drain and is
 * then killed with the group, so a step can never wait on it forever.
 */
export function runProcess(
  command: string,
  opts: { cwd: string; signal: AbortSignal; onOutput: (chunk: string) => void; env: NodeJS.ProcessEnv; onStart?: (pgid: number) => () => void },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // Told the process group as soon as it exists (the host agent records it on disk), and told again when it ended.
    const ended = child.pid !== undefined && opts.onStart ? opts.onStart(child.pid) : () => undefined;
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => opts.onOutput(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-16_384);
      opts.onOutput(d);
    });
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // the group is gone already
      }
    };
    const onAbort = () => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), 3000);
      killTimer.unref();
    };
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      ended();
      reject(e);
    });
    let closed = false;
    const settle = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      ended();
      opts.signal.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      resolve({ exitCode, signal, stderr });
    };
    child.on('close', () => (closed = true));
    child.on('exit', (exitCode, signal) => {
      if (closed) return settle(exitCode, signal);
      const drain = setTimeout(() => {
        killGroup('SIGKILL');
        child.stdout.destroy();
        child.stderr.destroy();
        settle(exitCode, signal);
      }, DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drain);
        settle(exitCode, signal);
      });
    });
  });
}
