/**
 * The client-side hooks library, for an agent client that runs hooks in its
 * own process instead of calling `orgctl hooks run`. It imports nothing from the server.
 */
export { defaultHookFiles, loadHooksConfig, type HookFile, type LoadedHooks } from './config-files.js';
export { hookEvents, isBlockingEvent, isHookEvent, isToolEvent, type HookEvent } from './events.js';
export { buildHookInput } from './hook-input.js';
export { runEvent, type RunEventOptions } from './run-event.js';
export { runHooks, type RunHooksOptions } from './run-hooks.js';
export * from './schemas.js';
export { selectHooks, type PlannedHook } from './select-hooks.js';
export { hookTelemetryEvents, reportHookEvents, type TelemetryTarget } from './telemetry.js';
export { formatIssue, HooksConfigError, validateHooksDocument, type ConfigIssue } from './validate-config.js';
