import type { HookEvent } from './events.js';
import { combineVerdicts, judgeHook } from './outcome.js';
import { runCommand } from './run-command.js';
import type { HookInput, HooksRunResult } from './schemas.js';
import type { PlannedHook } from './select-hooks.js';

export interface RunHooksOptions {
  event: HookEvent;
  input: HookInput;
  hooks: PlannedHook[];
  /** The project directory: the hooks' working directory and $ORGCTL_PROJECT_DIR. */
  cwd: string;
  /** The environment the hooks inherit, usually the caller's own. */
  env: Record<string, string | undefined>;
  /** Defaults to $SHELL from `env`, else /bin/sh. */
  shell?: string;
  killGraceMs?: number;
  maxOutputBytes?: number;
}

export const defaultKillGraceMs = 1000;
export const defaultMaxOutputBytes = 64 * 1024;

/**
 * Runs every planned hook at once and folds their verdicts into one result. A hook that
 * fails, hangs or cannot start is one verdict among the others, never an exception.
 */
export async function runHooks(opts: RunHooksOptions): Promise<HooksRunResult> {
  const started = performance.now();
  const input = `${JSON.stringify(opts.input)}\n`;
  const shell = opts.shell ?? (opts.env.SHELL || '/bin/sh');
  const env = hookEnv(opts.env, opts.cwd);
  const verdicts = await Promise.all(
    opts.hooks.map(async (hook) => {
      const run = await runCommand({
        command: hook.command,
        input,
        shell,
        cwd: opts.cwd,
        env,
        timeoutMs: hook.timeoutMs,
        killGraceMs: opts.killGraceMs ?? defaultKillGraceMs,
        maxOutputBytes: opts.maxOutputBytes ?? defaultMaxOutputBytes,
      });
      return judgeHook(opts.event, hook, run);
    }),
  );
  return combineVerdicts(opts.event, verdicts, Math.round(performance.now() - started));
}

/** The caller's environment plus the project directory; the service key stays with orgctl. */
function hookEnv(env: Record<string, string | undefined>, cwd: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env, ORGCTL_PROJECT_DIR: cwd };
  delete out.ORGCTL_API_KEY;
  return out;
}
