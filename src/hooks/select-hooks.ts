import type { LoadedHooks } from './config-files.js';
import { isToolEvent, type HookEvent } from './events.js';
import { matchesTool } from './matcher.js';
import { defaultTimeoutSeconds } from './timeouts.js';

/** One command to run for an event, after matching and de-duplication. */
export interface PlannedHook {
  command: string;
  timeoutMs: number;
  /** The matcher of the entry it came from ('' when absent), reported in telemetry. */
  matcher: string;
  source: string;
}

/**
 * The hooks to run for `event`. On tool events an entry runs when its matcher matches
 * `toolName`; with no tool name every entry is kept (for `hooks list`). On other events
 * matchers are ignored. A command configured twice (say in the user and the project file)
 * runs once, with the longer of its timeouts.
 */
export function selectHooks(loaded: Pick<LoadedHooks, 'events'>, event: HookEvent, toolName?: string): PlannedHook[] {
  const byCommand = new Map<string, PlannedHook>();
  for (const entry of loaded.events[event]) {
    if (isToolEvent(event) && toolName !== undefined && !matchesTool(entry.matcher, toolName)) continue;
    for (const hook of entry.hooks) {
      const timeoutMs = (hook.timeout ?? defaultTimeoutSeconds) * 1000;
      const seen = byCommand.get(hook.command);
      if (seen) seen.timeoutMs = Math.max(seen.timeoutMs, timeoutMs);
      else byCommand.set(hook.command, { command: hook.command, timeoutMs, matcher: entry.matcher ?? '', source: entry.source });
    }
  }
  return [...byCommand.values()];
}
