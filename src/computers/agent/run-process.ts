import { spawn } from 'node:child_process';

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs a shell command line in its own process group, streaming its output. Aborting kills the
 * whole group (npm and the scripts it starts), first politely, then for good.
 */
export function runProcess(command: string, opts: { cwd: string; signal: AbortSignal; onOutput: (chunk: string) => void; env: NodeJS.ProcessEnv }): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      opts.signal.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      resolve({ exitCode, signal, stderr });
    });
  });
}
