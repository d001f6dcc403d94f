import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const cli = path.join(root, 'dist/main.js');

/**
 * These tests run the built CLI, as a user would. Building here would race with other test
 * files and the global setup, so a stale build is an error that says what to do.
 */
export function assertFreshBuild(): void {
  const built = statSync(path.join(root, 'dist/hooks/commands.js'), { throwIfNoEntry: false });
  const newest = Math.max(...readdirSync(path.join(root, 'src/hooks')).map((f) => statSync(path.join(root, 'src/hooks', f)).mtimeMs));
  const wired = existsSync(cli) && readFileSync(cli, 'utf8').includes('./hooks/commands.js');
  if (!built || built.mtimeMs < newest || !wired) throw new Error('dist/ is older than src/hooks: run `npm run build` before these tests.');
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `node dist/main.js ...args` with only the environment given (plus PATH). */
export function orgctl(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliRun> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SHELL: '/bin/sh', HOME: '/nonexistent', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}
