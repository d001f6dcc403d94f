import { isBlockingEvent, type HookEvent } from './events.js';
import { hookJsonOutputFields } from './generated/validators.js';
import type { CommandResult } from './run-command.js';
import type { HookJsonOutput, HookOutcome, HookRunResult, HooksRunResult } from './schemas.js';
import type { PlannedHook } from './select-hooks.js';

/** What one hook said, read from its exit and its stdout. */
export interface HookVerdict {
  result: HookRunResult;
  json: HookJsonOutput;
  /** Why it blocks (for the agent) or why it failed (for the user). */
  reason?: string;
}

/**
 * Exit 0: continue, unless the JSON on stdout says otherwise. Exit 2: blocking on a
 * blocking event, stderr is the reason; elsewhere a non-blocking error. Anything else, a
 * signal, a timeout or a failed start: a non-blocking error whose stderr is shown. JSON is
 * read only on exit 0, so a crashing hook's half-written output decides nothing.
 */
export function judgeHook(event: HookEvent, hook: PlannedHook, run: CommandResult): HookVerdict {
  const json = run.exitCode === 0 ? parseJsonOutput(run.stdout) : {};
  const stderr = run.stderr.trim();
  let outcome: HookOutcome;
  let reason: string | undefined;
  if (run.startError !== undefined) {
    outcome = 'error';
    reason = `Hook "${hook.command}" could not start: ${run.startError}`;
  } else if (run.timedOut) {
    outcome = 'error';
    reason = `Hook "${hook.command}" timed out after ${hook.timeoutMs / 1000} s and was killed${stderr ? `: ${stderr}` : ''}`;
  } else if (run.exitCode === 0) {
    outcome = json.continue === false ? 'stop' : json.decision === 'block' && isBlockingEvent(event) ? 'block' : 'continue';
    if (outcome === 'block') reason = json.reason || `Blocked by hook "${hook.command}"`;
  } else if (run.exitCode === 2 && isBlockingEvent(event)) {
    outcome = 'block';
    reason = stderr || `Blocked by hook "${hook.command}" (exit 2)`;
  } else {
    outcome = 'error';
    const how = run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `failed with exit code ${run.exitCode}`;
    reason = `Hook "${hook.command}" ${how}${stderr ? `: ${stderr}` : ''}`;
  }
  const result: HookRunResult = {
    command: hook.command,
    matcher: hook.matcher,
    source: hook.source,
    outcome,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: run.stdout,
    stderr: run.stderr,
    outputTruncated: run.outputTruncated,
  };
  return { result, json, reason };
}

/**
 * Folds the verdicts into one answer. `continue: false` wins over a block (the agent
 * stops, so there is nothing left to hold back), except before a tool runs: a stopping
 * agent must not run the tool either, so PreToolUse stays blocked.
 */
export function combineVerdicts(event: HookEvent, verdicts: HookVerdict[], durationMs: number): HooksRunResult {
  const stops = verdicts.filter((v) => v.result.outcome === 'stop');
  const blocks = verdicts.filter((v) => v.result.outcome === 'block');
  const stopping = stops.length > 0;
  const blocked = event === 'PreToolUse' ? blocks.length > 0 || stopping : blocks.length > 0 && !stopping;
  const approved = verdicts.some((v) => v.result.outcome === 'continue' && v.json.decision === 'approve');
  const stopReasons = stops.map((v) => v.json.stopReason).filter((r): r is string => !!r);
  const messages = [
    ...verdicts.map((v) => v.json.systemMessage).filter((m): m is string => !!m),
    ...verdicts.filter((v) => v.result.outcome === 'error' && v.reason).map((v) => v.reason as string),
  ];
  return {
    event,
    continue: !stopping,
    blocked,
    ...(blocked ? { decision: 'block' as const } : approved ? { decision: 'approve' as const } : {}),
    reasons: blocked ? blocks.map((v) => v.reason as string) : [],
    ...(stopReasons.length > 0 ? { stopReason: stopReasons.join('\n') } : {}),
    messages,
    durationMs,
    hooks: verdicts.map((v) => v.result),
  };
}

/** A JSON object on stdout; anything else (text, an array, broken JSON) is plain output. */
function parseJsonOutput(stdout: string): HookJsonOutput {
  const text = stdout.trim();
  if (!text.startsWith('{')) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  // Field by field: one mistyped field is ignored rather than discarding the others.
  const out: Record<string, unknown> = {};
  // The validators are precompiled by ajv (src/hooks/generated, `npm run hooks:validators`).
  for (const [key, validate] of Object.entries(hookJsonOutputFields)) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value !== undefined && validate(value)) out[key] = value;
  }
  return out as HookJsonOutput;
}
