import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAIN, spawnCli, type CliResult } from '../helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * These tests run the built CLI, as a user would. Building here would race with other test
 * files and the global setup, so a stale build is an error that says what to do.
 */
export function assertFreshBuild(): void {
  const built = statSync(path.join(root, 'dist/hooks/commands.js'), { throwIfNoEntry: false });
  const newest = Math.max(...readdirSync(path.join(root, 'src/hooks')).map((f) => statSync(path.join(root, 'src/hooks', f)).mtimeMs));
  const wired = existsSync(MAIN) && readFileSync(MAIN, 'utf8').includes('./hooks/commands.js');
  if (!built || built.mtimeMs < newest || !wired) throw new Error('dist/ is older than src/hooks: run `npm run build` before these tests.');
}

/** The CLI as the agent runs a hook: with only the environment given (plus PATH, a shell and no home). */
export function orgctl(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  return spawnCli(args, { cwd: opts.cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SHELL: '/bin/sh', HOME: '/nonexistent', ...opts.env } });
}
