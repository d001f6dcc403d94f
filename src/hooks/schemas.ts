import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { hookEvents } from './events.js';
import { maxTimeoutSeconds } from './timeouts.js';

/**
 * Schemas of the hooks configuration, of the JSON a hook may print, and of
 * the combined result `orgctl hooks run` prints. `errorMessage` is our own option: the
 * validator prints it instead of ajv's generic text, so a user reads what to write (and
 * `eventMap` marks the object whose unknown properties are events). The hooks runner checks with
 * validators ajv compiled ahead of time from these schemas (src/hooks/generated).
 */

export { defaultTimeoutSeconds, maxTimeoutSeconds } from './timeouts.js';

export const HookCommandSchema = Type.Object(
  {
    type: Type.Literal('command', { errorMessage: 'must be "command" (the only hook type)' }),
    command: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
    timeout: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: maxTimeoutSeconds, errorMessage: `must be a number of seconds > 0 and <= ${maxTimeoutSeconds}` }),
    ),
  },
  { additionalProperties: false, errorMessage: 'must be an object {"type": "command", "command": ..., "timeout"?: seconds}' },
);
export type HookCommand = Static<typeof HookCommandSchema>;

export const HookEntrySchema = Type.Object(
  {
    matcher: Type.Optional(Type.String({ errorMessage: 'must be a string (a regular expression on the tool name)' })),
    hooks: Type.Array(HookCommandSchema, { errorMessage: 'must be an array of hooks' }),
  },
  { additionalProperties: false, errorMessage: 'must be an object {"matcher"?: ..., "hooks": [...]}' },
);
export type HookEntry = Static<typeof HookEntrySchema>;

const entries = Type.Optional(Type.Array(HookEntrySchema, { errorMessage: 'must be an array of entries' }));

/** EVENT -> entries; an unknown event is an additional property, reported by name. */
export const HookEventMapSchema = Type.Object(
  Object.fromEntries(hookEvents.map((event) => [event, entries])) as { [E in (typeof hookEvents)[number]]: typeof entries },
  { additionalProperties: false, errorMessage: 'must be an object mapping event names to arrays of entries', eventMap: true },
);
export type HookEventMap = Static<typeof HookEventMapSchema>;

/** The JSON object a hook may print on stdout (exit 0); other keys are ignored. */
export const HookJsonOutputSchema = Type.Object({
  continue: Type.Optional(Type.Boolean()),
  stopReason: Type.Optional(Type.String()),
  systemMessage: Type.Optional(Type.String()),
  decision: Type.Optional(Type.Union([Type.Literal('block'), Type.Literal('approve')])),
  reason: Type.Optional(Type.String()),
});
export type HookJsonOutput = Static<typeof HookJsonOutputSchema>;

/** The object every hook receives on stdin. */
export const HookInputSchema = Type.Object({
  hook_event_name: Type.Union(hookEvents.map((e) => Type.Literal(e))),
  session_id: Type.String(),
  cwd: Type.String(),
  message: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  stop_hook_active: Type.Optional(Type.Boolean()),
  tool_name: Type.Optional(Type.String()),
});
export type HookInput = Static<typeof HookInputSchema>;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const HookOutcomeSchema = Type.Union([
  Type.Literal('continue', { description: 'exit 0, nothing asked' }),
  Type.Literal('block', { description: 'exit 2 or decision "block" on a blocking event' }),
  Type.Literal('stop', { description: 'exit 0 with "continue": false' }),
  Type.Literal('error', { description: 'any other exit, a timeout, a signal or a failed start: non-blocking' }),
]);
export type HookOutcome = Static<typeof HookOutcomeSchema>;

export const HookRunResultSchema = Type.Object({
  command: Type.String(),
  matcher: Type.String(),
  source: Type.String({ description: 'configuration file the entry came from' }),
  outcome: HookOutcomeSchema,
  exitCode: nullable(Type.Integer()),
  signal: nullable(Type.String()),
  timedOut: Type.Boolean(),
  durationMs: Type.Integer({ minimum: 0 }),
  stdout: Type.String(),
  stderr: Type.String(),
  outputTruncated: Type.Boolean(),
});
export type HookRunResult = Static<typeof HookRunResultSchema>;

export const HooksRunResultSchema = Type.Object({
  event: Type.Union(hookEvents.map((e) => Type.Literal(e))),
  continue: Type.Boolean({ description: 'false when a hook printed "continue": false: the agent stops' }),
  blocked: Type.Boolean({ description: 'the agent must not do what the event is about (stop, run the tool); `reasons` say why' }),
  decision: Type.Optional(Type.Union([Type.Literal('block'), Type.Literal('approve')])),
  reasons: Type.Array(Type.String(), { description: 'why it is blocked, for the agent' }),
  stopReason: Type.Optional(Type.String({ description: 'why the agent stops, for the user' })),
  messages: Type.Array(Type.String(), { description: 'for the user: systemMessage values and non-blocking errors' }),
  durationMs: Type.Integer({ minimum: 0 }),
  hooks: Type.Array(HookRunResultSchema),
});
export type HooksRunResult = Static<typeof HooksRunResultSchema>;

/** A `hook` telemetry event as posted to /api/v1/telemetry/events. */
export const HookTelemetryEventSchema = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description: 'a UUID, the idempotency key' }),
  type: Type.Literal('hook'),
  timestamp: Type.String({ description: 'ISO 8601 with offset' }),
  sessionId: Type.String(),
  client: Type.Union([Type.Literal('terminal-ui'), Type.Literal('non-interactive-cli')]),
  event: Type.String(),
  matcher: Type.String(),
  command: Type.String(),
});
export type HookTelemetryEvent = Static<typeof HookTelemetryEventSchema>;
