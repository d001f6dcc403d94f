import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { output, parseFlags, UsageError } from '../core/cli/args.js';
import { defaultHookFiles, loadHooksConfig, type HookFile } from './config-files.js';
import { hookEvents, isHookEvent, isToolEvent, type HookEvent } from './events.js';
import { runEvent } from './run-event.js';
import type { HookTelemetryEvent } from './schemas.js';
import { selectHooks } from './select-hooks.js';
import { HooksConfigError } from './validate-config.js';

/**
 * `orgctl hooks run | validate | list`. main.ts hands over its environment: this client
 * reads HOME, SHELL, ORGCTL_HOOKS_USER, ORGCTL_URL and ORGCTL_API_KEY from it, and the
 * hooks inherit it.
 */
export type HooksEnv = Record<string, string | undefined>;

const common = {
  config: { type: 'string', multiple: true },
  cwd: { type: 'string' },
} as const;

const clients: readonly HookTelemetryEvent['client'][] = ['non-interactive-cli', 'terminal-ui'];

/**
 * Exit 0: the agent may go on; 2: blocked (the result's `reasons` say why); 1: nothing ran
 * (bad arguments or configuration). A usage error is 1 here, not the usual 2, so that a
 * client's mistake can never read as "blocked" and keep an agent from stopping.
 */
export async function hooksRun(argv: string[], env: HooksEnv): Promise<number> {
  try {
    const { values, positionals } = parseFlags(
      argv,
      {
        ...common,
        'session-id': { type: 'string' },
        message: { type: 'string' },
        reason: { type: 'string' },
        'tool-name': { type: 'string' },
        'stop-hook-active': { type: 'boolean' },
        client: { type: 'string', default: 'non-interactive-cli' },
      },
      1,
    );
    const event = parseEvent(positionals[0]);
    const toolName = values['tool-name'];
    if (isToolEvent(event) && !toolName) throw new UsageError(`--tool-name is required for ${event}.`);
    const client = clients.find((c) => c === values.client);
    if (!client) throw new UsageError(`--client must be one of: ${clients.join(', ')}.`);
    const cwd = projectDir(values.cwd);
    const result = await runEvent({
      event,
      files: configFiles(values.config, env, cwd),
      cwd,
      env,
      client,
      sessionId: values['session-id'] || randomUUID(),
      message: values.message,
      reason: values.reason,
      toolName,
      stopHookActive: values['stop-hook-active'],
      telemetry: env.ORGCTL_URL && env.ORGCTL_API_KEY ? { url: env.ORGCTL_URL, apiKey: env.ORGCTL_API_KEY } : undefined,
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.blocked ? 2 : 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof HooksConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/** Exit 0 when every file is valid (or none exists), 1 with one line per fault. */
export async function hooksValidate(argv: string[], env: HooksEnv): Promise<number> {
  const { values } = parseFlags(argv, { ...common, json: { type: 'boolean' } });
  const files = configFiles(values.config, env, projectDir(values.cwd));
  try {
    const loaded = await loadHooksConfig(files);
    const count = hookEvents.reduce((n, e) => n + selectHooks(loaded, e).length, 0);
    const lines =
      loaded.files.length === 0
        ? [`No hook configuration found (looked for ${files.map((f) => f.path).join(', ')}).`]
        : [`Valid: ${count} hook${count === 1 ? '' : 's'} in ${loaded.files.join(', ')}.`];
    output(values.json, { valid: true, files: loaded.files, hooks: count }, lines);
    return 0;
  } catch (e) {
    if (!(e instanceof HooksConfigError)) throw e;
    if (values.json) output(true, { valid: false, errors: e.issues }, []);
    else process.stderr.write(`${e.message}\n`);
    return 1;
  }
}

/** What would run for each event, after merging and de-duplication. */
export async function hooksList(argv: string[], env: HooksEnv): Promise<number> {
  const { values } = parseFlags(argv, { ...common, 'tool-name': { type: 'string' }, json: { type: 'boolean' } });
  const files = configFiles(values.config, env, projectDir(values.cwd));
  let loaded;
  try {
    loaded = await loadHooksConfig(files);
  } catch (e) {
    if (!(e instanceof HooksConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  const events = Object.fromEntries(
    hookEvents.map((event) => [
      event,
      selectHooks(loaded, event, values['tool-name']).map((h) => ({
        command: h.command,
        matcher: h.matcher,
        timeoutSeconds: h.timeoutMs / 1000,
        source: h.source,
      })),
    ]),
  );
  const lines = [`Files: ${loaded.files.length > 0 ? loaded.files.join(', ') : 'none found'}`];
  for (const [event, hooks] of Object.entries(events)) {
    lines.push(`${event}:${hooks.length === 0 ? ' (none)' : ''}`);
    for (const h of hooks) {
      const matcher = isToolEvent(event as HookEvent) ? `[${h.matcher === '' ? '*' : h.matcher}] ` : '';
      lines.push(`  ${matcher}${h.command}  (timeout ${h.timeoutSeconds} s, ${h.source})`);
    }
  }
  output(values.json, { files: loaded.files, events }, lines);
  return 0;
}

function parseEvent(name: string | undefined): HookEvent {
  if (name === undefined) throw new UsageError(`Missing EVENT (one of: ${hookEvents.join(', ')}).`);
  if (!isHookEvent(name)) throw new UsageError(`Unknown event "${name}" (one of: ${hookEvents.join(', ')}).`);
  return name;
}

function projectDir(flag: string | undefined): string {
  const dir = path.resolve(flag ?? process.cwd());
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--cwd ${dir} is not a directory.`);
  return dir;
}

/** Explicit --config files replace the defaults (so a test of one file sees only that file). */
function configFiles(explicit: string[] | undefined, env: HooksEnv, cwd: string): HookFile[] {
  if (explicit && explicit.length > 0) return explicit.map((f) => ({ path: path.resolve(f), explicit: true }));
  return defaultHookFiles(env, cwd);
}
