import { UsageError } from '../core/cli/args.js';
import { CliError } from '../core/cli/cli-error.js';
import { ConfigError } from '../config-error.js';
import { DataDirInUseError } from '../core/db/data-dir-lock.js';
import { AppError } from '../core/http/errors.js';

/**
 * Every failure the user can act on is one message on stderr and an exit code, never a stack.
 * Loaded by main.ts only when a command failed: its error classes bring in modules a hook
 * process (orgctl guard, whose start-up counts) never needs.
 */
export async function reportFailure(e: unknown): Promise<number> {
  if (e instanceof UsageError || e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  if (e instanceof CliError) {
    process.stderr.write(`${e.message}\n`);
    return e.exitCode;
  }
  if (e instanceof AppError || e instanceof DataDirInUseError) {
    process.stderr.write(`${e instanceof AppError ? e.detail : e.message}\n`);
    return 1;
  }
  const { ApiError, ServiceUnreachableError } = await import('../client/api-client.js');
  if (e instanceof ApiError) {
    const problems = (e.metadata?.errors as { path?: string; message?: string }[] | undefined) ?? [];
    const lines = [
      `Error: ${e.detail}`,
      ...problems.map((p) => `  ${p.path || '/'} ${p.message ?? ''}`),
      `(HTTP ${e.status}${e.requestId ? `, request id ${e.requestId}` : ''}${typeof e.metadata?.code === 'string' ? `, code ${e.metadata.code}` : ''})`,
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    return 1;
  }
  if (e instanceof ServiceUnreachableError) {
    process.stderr.write(`${e.message}\n`);
    return 3;
  }
  throw e;
}
