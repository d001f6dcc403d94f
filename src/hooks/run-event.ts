import { loadHooksConfig, type HookFile } from './config-files.js';
import type { HookEvent } from './events.js';
import { buildHookInput, type HookInputOptions } from './hook-input.js';
import { runHooks } from './run-hooks.js';
import type { HookTelemetryEvent, HooksRunResult } from './schemas.js';
import { selectHooks } from './select-hooks.js';
import { hookTelemetryEvents, reportHookEvents, type TelemetryTarget } from './telemetry.js';

export interface RunEventOptions extends Omit<HookInputOptions, 'cwd'> {
  event: HookEvent;
  files: HookFile[];
  /** The project directory. */
  cwd: string;
  env: Record<string, string | undefined>;
  client: HookTelemetryEvent['client'];
  /** When set, each hook that runs is reported as a `hook` telemetry event. */
  telemetry?: TelemetryTarget;
  telemetryTimeoutMs?: number;
}

/**
 * Everything an agent client does for one event: load the configuration (throws
 * HooksConfigError), pick the hooks, run them, report them. The telemetry post starts
 * once the hooks are spawned and runs beside them; the result waits for it at most
 * `telemetryTimeoutMs` from its start, and not at all when the service refuses.
 */
export async function runEvent(o: RunEventOptions): Promise<HooksRunResult> {
  const loaded = await loadHooksConfig(o.files);
  const hooks = selectHooks(loaded, o.event, o.toolName);
  const input = buildHookInput({ ...o, cwd: o.cwd });
  const at = new Date();
  const running = runHooks({ event: o.event, input, hooks, cwd: o.cwd, env: o.env });
  const reported =
    o.telemetry && hooks.length > 0
      ? reportHookEvents(o.telemetry, hookTelemetryEvents({ sessionId: o.sessionId, client: o.client, event: o.event, hooks, at }), o.telemetryTimeoutMs)
      : undefined;
  const result = await running;
  await reported;
  return result;
}
