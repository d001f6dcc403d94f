import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command line, run the way the README runs it. */
export const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From start to exit. */
  ms: number;
}

/** `node dist/main.js ...args` with exactly the environment `env`, `input` on stdin, to its exit. */
export function spawnCli(args: string[], opts: { env: Record<string, string | undefined>; cwd?: string; input?: string }): Promise<CliResult> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: opts.env, cwd: opts.cwd, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
    child.stdin.end(opts.input ?? '');
  });
}

/** The CLI in this process's environment, with `env` on top. */
export function runCli(args: string[], env: Record<string, string | undefined>, input?: string): Promise<CliResult> {
  return spawnCli(args, { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, input });
}

/**
 * The CLI on another machine, logged in to `url` with `key` through ORGCTL_*: no database
 * settings, its configuration under `dir`, run in `dir`.
 */
export function remoteCli(args: string[], o: { url: string; key: string; dir: string }): Promise<CliResult> {
  return spawnCli(args, {
    cwd: o.dir,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: '',
      DATABASE_URL: '',
      XDG_CONFIG_HOME: path.join(o.dir, 'config'),
      ORGCTL_URL: o.url,
      ORGCTL_API_KEY: o.key,
    },
  });
}

export interface Server {
  url: string;
  output: () => string;
  process: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `orgctl serve` on a free port and resolves once it prints where it listens. With
 * `openFiles`, the process may hold at most that many file descriptors (its hard limit, which
 * Node cannot raise), as on a machine with a low `ulimit -n`. `startMs` bounds the wait for it to listen.
 */
export function startServer(
  env: Record<string, string | undefined>,
  args: string[] = [],
  opts: { openFiles?: number; startMs?: number } = {},
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const options = { env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env }, stdio: 'pipe' } as const;
    const child =
      opts.openFiles === undefined
        ? spawn(process.execPath, [MAIN, 'serve', ...args], options)
        : spawn('/bin/sh', ['-c', `ulimit -n ${opts.openFiles} && exec "$0" "$@"`, process.execPath, MAIN, 'serve', ...args], options);
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, opts.startMs ?? 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && out.includes('API description')) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          output: () => out,
          process: child,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}
