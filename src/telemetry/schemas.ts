import { Type, type Static } from '@sinclair/typebox';
import { EventCommon, RepositoryFields } from '../events/schemas.js';

export const IngestBody = Type.Object(
  {
    events: Type.Array(EventCommon, {
      minItems: 1,
      maxItems: 1000,
      description:
        'Every event has id, type, timestamp, sessionId, client. Extra fields by type: session_start delegationLevel; message role; ' +
        'model_request model, tier, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens; tool_call tool, autonomyLevel, mcpServer?; ' +
        'skill name; slash_command name; hook event, matcher, command; file_change path, change, language?; git_commit and pr_created none.',
    }),
  },
  { additionalProperties: false },
);
export type IngestBody = Static<typeof IngestBody>;

export const IngestResult = Type.Object({
  accepted: Type.Integer({ minimum: 0, description: 'Events stored now' }),
  duplicates: Type.Integer({ minimum: 0, description: 'Events whose id was already stored (or repeated in this batch); they changed nothing' }),
});
export type IngestResult = Static<typeof IngestResult>;

export const SessionParams = Type.Object({
  sessionId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]+$', description: 'The session, as its events name it' }),
});
/** The SessionStart record of `orgctl connect`: where the session works (contract §19, the best source). */
export const SessionRepositoryBody = RepositoryFields;
export type SessionRepositoryBody = Static<typeof SessionRepositoryBody>;
export const SessionRepositoryQuery = Type.Object({
  email: Type.Optional(
    Type.String({
      format: 'email',
      maxLength: 320,
      description: "The session is another user's, named by email (owners and managers: a managed install's service account); default: the caller's",
    }),
  ),
});
