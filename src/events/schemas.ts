import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { EARLIEST_ISO } from './timestamps.js';

// The event vocabulary: what an agent event is, whichever way it arrives (POST
// /api/v1/telemetry/events, or OTLP mapped to native events) and whatever reads it (analytics).

export const CLIENTS = ['terminal-ui', 'web', 'non-interactive-cli'] as const;
export const DELEGATION_LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'] as const;
export const AUTONOMY_LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'manual'] as const;
export const EVENT_TYPES = [
  'session_start',
  'message',
  'model_request',
  'tool_call',
  'skill',
  'slash_command',
  'hook',
  'file_change',
  'git_commit',
  'pr_created',
  'pr_merged',
] as const;

export type Client = (typeof CLIENTS)[number];
export type EventType = (typeof EVENT_TYPES)[number];

const oneOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );
const Name = (description: string, maxLength = 200) => Type.String({ minLength: 1, maxLength, description });
// A trillion tokens per request is far beyond any model, and keeps every credit sum inside a bigint.
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 });

/** Where a session works: its repository's remote URL, branch and commit (contract §19). */
export const RepositoryFields = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'Remote URL of the repository (https, ssh, git or scp-like); credentials are dropped' }),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    commit: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{7,64}$' })),
  },
  {
    additionalProperties: false,
    description: "The session's repository, when the client knows it; ranks below the SessionStart record and OTel vcs.* attributes",
  },
);

/**
 * The fields every event carries. Unknown fields are allowed (and ignored) so that newer
 * clients keep working with an older service.
 */
export const EventCommon = Type.Object(
  {
    id: Name('Client-chosen idempotency key, unique per organization'),
    type: oneOf(EVENT_TYPES),
    timestamp: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Integer()], {
      description: `ISO 8601 with a UTC offset (2026-03-01T12:00:00Z), or Unix epoch milliseconds; from ${EARLIEST_ISO} to 5 minutes in the future`,
    }),
    sessionId: Name('Session the event belongs to'),
    client: oneOf(CLIENTS),
    userId: Type.Optional(Type.String({ format: 'uuid', description: 'Owner or manager only: attribute the event to this user of the organization' })),
    repository: Type.Optional(RepositoryFields),
  },
  { additionalProperties: true },
);

/** The extra fields of each event type. */
export const EventFields: Record<EventType, TSchema> = {
  session_start: Type.Object({ delegationLevel: oneOf(DELEGATION_LEVELS) }),
  message: Type.Object({ role: oneOf(['user', 'assistant'] as const) }),
  model_request: Type.Object({
    model: Name('Model id; multipliers come from the model catalogue, unknown models count 1x'),
    tier: oneOf(['standard', 'thinking'] as const),
    inputTokens: Count,
    outputTokens: Count,
    cacheReadTokens: Count,
    cacheWriteTokens: Count,
  }),
  tool_call: Type.Object({
    tool: Name('Tool name'),
    autonomyLevel: oneOf(AUTONOMY_LEVELS),
    mcpServer: Type.Optional(Name('MCP server, kept with its letter case')),
    outcome: Type.Optional(oneOf(['success', 'error'] as const, 'How the call ended; an error counts in the tool error rate of repositories')),
  }),
  skill: Type.Object({ name: Name('Skill name') }),
  slash_command: Type.Object({ name: Name('Slash command') }),
  hook: Type.Object({ event: Name('Hook event'), matcher: Type.String({ maxLength: 1000 }), command: Name('Hook command', 4000) }),
  file_change: Type.Object({
    path: Name('File path', 4096),
    change: oneOf(['created', 'edited'] as const),
    language: Type.Optional(Name('Language; derived from the extension when absent', 100)),
  }),
  git_commit: Type.Object({}),
  pr_created: Type.Object({}),
  pr_merged: Type.Object({}),
};

/**
 * Each type's own fields, as one union tagged by `type` (a discriminator: a validator checks only
 * the branch the type names). The common fields are EventCommon's, which the request body
 * checks already; checking them twice would cost the ingestion path for nothing.
 */
export const Event = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: EVENT_TYPES.map((type) => {
    const own = EventFields[type] as TObject;
    return Type.Object({ type: Type.Literal(type), ...own.properties }, { additionalProperties: true });
  }),
});
