import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HookEvent } from '../../src/hooks/events.js';
import { buildHookInput } from '../../src/hooks/hook-input.js';
import { runHooks, type RunHooksOptions } from '../../src/hooks/run-hooks.js';
import type { PlannedHook } from '../../src/hooks/select-hooks.js';
import { tempDir } from '../helpers/cleanup.js';

/** A fresh directory, removed when the test that made it ends (or the file, made outside a test). */
export const hooksDir = (): string => tempDir('orgctl-hooks-');

/** Writes an executable shell script and returns its path, ready to be a hook command. */
export function script(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

export function writeJson(dir: string, name: string, doc: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return file;
}

export function plan(command: string, timeoutSeconds = 10): PlannedHook {
  return { command, timeoutMs: timeoutSeconds * 1000, matcher: '', source: 'test' };
}

/** Hooks see a small, fixed environment: /bin/sh, and no HOME files of the person running the tests. */
export const testEnv = { PATH: process.env.PATH, SHELL: '/bin/sh', HOME: '/nonexistent' };

export function run(event: HookEvent, hooks: PlannedHook[], extra: Partial<RunHooksOptions> & { cwd?: string } = {}) {
  const cwd = extra.cwd ?? tmpdir();
  const input = extra.input ?? buildHookInput({ event, sessionId: 'sess-1', cwd, message: 'waiting for you', reason: 'other', toolName: 'Edit' });
  return runHooks({ event, hooks, cwd, env: testEnv, input, ...extra });
}

/** Alive and not a zombie: a killed child reparented to a slow-reaping init is dead, just not yet reaped. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

export function readPid(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}

/** Safety net so a failing test never leaves a sleeper behind. */
export function killIfRunning(pid: number | undefined): void {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
