import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateString } from '../core/validation/date.js';
import { RepositoryParam } from './repo-schemas.js';

const DateParam = (what: string) => DateString(`${what} (YYYY-MM-DD, UTC), before today; the range spans at most 366 days`);
const range = { startDate: DateParam('First day'), endDate: DateParam('Last day, inclusive') };
const groupBy = (value: string) => Type.Optional(Type.Literal(value, { description: `Only value: ${value}. One flattened row per ${value} per day` }));
const groupByOrTeam = (value: string) =>
  Type.Optional(
    Type.Union([Type.Literal(value), Type.Literal('team'), Type.Literal('repository')], {
      description:
        `${value}, team or repository. One flattened row per ${value} (or per team, counting each person in every team they belonged to that day; ` +
        'or per repository, group_key its id, of the usage of sessions attributed to it) per day',
    }),
  );
const repository = { repository: RepositoryParam };
const teamId = {
  team_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: "Only the usage of the team's members on the days they belonged to it (a deleted team's too); an unknown team is 404",
    }),
  ),
};

export const TokensQuery = Type.Object({ ...range, ...teamId, ...repository, group_by: groupByOrTeam('model') });
export const ToolsQuery = Type.Object({ ...range, group_by: groupBy('tool_name') });
export const ActivityQuery = Type.Object({ ...range, ...teamId, ...repository, group_by: groupByOrTeam('client') });
export const ProductivityQuery = Type.Object(range);
export const UsersQuery = Type.Object({
  ...range,
  ...teamId,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Users per page' })),
  cursor: Type.Optional(Type.String({ format: 'uuid', description: 'The next_cursor of the previous page (a user id)' })),
  user_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this user's rows (one page; limit and cursor do not apply)" })),
});
export const UserTotalsQuery = Type.Object({ ...range, ...teamId });
export type TokensQuery = Static<typeof TokensQuery>;
export type ToolsQuery = Static<typeof ToolsQuery>;
export type ActivityQuery = Static<typeof ActivityQuery>;
export type ProductivityQuery = Static<typeof ProductivityQuery>;
export type UsersQuery = Static<typeof UsersQuery>;
export type UserTotalsQuery = Static<typeof UserTotalsQuery>;

const N = Type.Number();
const Int = Type.Integer();
const DateOut = Type.String({ description: 'YYYY-MM-DD' });
export const Meta = Type.Object({ org_id: Type.String(), start_date: Type.String(), end_date: Type.String() });
const envelope = (row: TSchema, meta: TSchema = Meta) => Type.Object({ data: Type.Array(row), meta });
const GroupRow = (metric: string) => Type.Object({ date: DateOut, group_key: Type.String(), [metric]: Int });

const TokenSums = {
  billable_tokens: Type.Integer({ description: 'Standard Credits, rounded to an integer' }),
  input_tokens: Int,
  output_tokens: Int,
  cache_read_tokens: Int,
  cache_write_tokens: Int,
};
export const ModelUsage = Type.Object({ model_id: Type.String(), model_tier: Type.String(), ...TokenSums });
export const TokensRow = Type.Object({
  date: DateOut,
  ...TokenSums,
  by_model: Type.Array(ModelUsage),
  by_user: Type.Array(
    Type.Object({ user_id: Type.String(), user_email: Type.Union([Type.String(), Type.Null()]), billable_tokens: Int, by_model: Type.Array(ModelUsage) }),
  ),
});
/** A /tokens?group_by=model row: one model's sums of a day. */
export const TokensModelRow = Type.Object({ date: DateOut, group_key: Type.String(), ...TokenSums });
const TeamName = Type.String({ description: 'The name the team had that day (the last it was given on or before it), also after the team was deleted' });
/** A /tokens?group_by=team row: one team's sums of a day (group_key is the team id). */
export const TokensTeamRow = Type.Object({ date: DateOut, group_key: Type.String({ description: 'The team id' }), team_name: TeamName, ...TokenSums });
export const TokensResponse = Type.Union([envelope(TokensRow), envelope(TokensModelRow), envelope(TokensTeamRow)]);

const Named = (key: string, count: string) => Type.Array(Type.Object({ [key]: Type.String(), [count]: Int }));
export const ToolsRow = Type.Object({
  date: DateOut,
  tool_calls: Int,
  by_tool: Named('tool', 'invocations'),
  mcp_users_with_mcp: Int,
  mcp_by_server: Named('server', 'invocations'),
  skills_invocations: Int,
  skills_by_name: Named('name', 'count'),
  slash_commands_invocations: Int,
  slash_commands_by_name: Named('name', 'count'),
  hooks_invocations: Int,
  hooks_by_event: Type.Array(Type.Object({ event: Type.String(), matcher: Type.String(), command: Type.String(), count: Int })),
  web_users: Int,
  autonomy_ratio_avg: N,
  autonomy_ratio_p50: N,
  autonomy_ratio_p90: N,
  tool_calls_per_session_avg: N,
  user_turns_per_session_avg: N,
  tool_autonomy_level_ratio: Type.Object({ auto_high: N, auto_medium: N, auto_low: N, manual: N }),
});
/** A /tools?group_by=tool_name row: one tool's calls of a day. */
export const ToolsNameRow = GroupRow('tool_calls');
export const ToolsResponse = Type.Union([envelope(ToolsRow), envelope(ToolsNameRow)]);

export const ActivityRow = Type.Object({
  date: DateOut,
  daily_active_users: Int,
  weekly_active_users: Int,
  monthly_active_users: Int,
  daily_active_users_by_client: Type.Object({ 'terminal-ui': Int, web: Int, 'non-interactive-cli': Int }),
  sessions: Int,
  messages: Int,
  user_messages: Int,
});
export const ActivityTeamRow = Type.Object({
  date: DateOut,
  group_key: Type.String({ description: 'The team id' }),
  team_name: TeamName,
  daily_active_users: Int,
});
// The team rows before the client rows: the serializer takes the first schema a row fits, and a team row fits both.
export const ActivityResponse = Type.Union([envelope(ActivityRow), envelope(ActivityTeamRow), envelope(GroupRow('daily_active_users'))]);

export const ProductivityRow = Type.Object({
  date: DateOut,
  files_created: Int,
  files_edited: Int,
  by_extension: Named('extension', 'count'),
  by_language: Named('language', 'count'),
  git_commits: Int,
  git_prs_created: Int,
});
export const ProductivityResponse = envelope(ProductivityRow);

export const UserRow = Type.Object({
  user_id: Type.String(),
  user_email: Type.Union([Type.String(), Type.Null()]),
  date: DateOut,
  tool_calls: Int,
  billable_tokens: Int,
  primary_model: Type.Union([Type.String(), Type.Null()], {
    description: 'The model with the most credits that day (ties: smallest id); null without model requests',
  }),
  primary_model_tier: Type.Union([Type.String(), Type.Null()]),
  files_created: Int,
  files_edited: Int,
  git_commits: Int,
  git_prs_created: Int,
  mcp_calls: Int,
  skill_calls: Int,
  slash_commands: Int,
  hooks: Int,
  sessions: Int,
  messages: Int,
  user_messages: Int,
  assistant_messages: Int,
  autonomy_ratio: N,
  delegation_level: Type.String(),
  languages: Type.Array(Type.String()),
});
export const UsersMeta = Type.Object({ ...Meta.properties, has_more: Type.Boolean(), next_cursor: Type.Union([Type.String(), Type.Null()]) });
export const UsersResponse = envelope(UserRow, UsersMeta);

/** One principal's sums over the range: every user of the organization, active or not, and each service account active in it. */
export const UserTotalsRow = Type.Object({
  user_id: Type.String(),
  user_email: Type.Union([Type.String(), Type.Null()], { description: 'null for a service account' }),
  user_name: Type.String(),
  role: Type.String(),
  active_days: Type.Integer({ description: 'Days of the range with any event of the user' }),
  last_active_date: Type.Union([DateOut, Type.Null()], { description: 'The last active day in the range; null without one' }),
  billable_tokens: Type.Integer({ description: 'Standard Credits over the range, rounded once' }),
  tool_calls: Int,
  sessions: Int,
  messages: Int,
  user_messages: Int,
  files_created: Int,
  files_edited: Int,
  git_commits: Int,
  git_prs_created: Int,
});
export const UserTotalsResponse = envelope(UserTotalsRow);
export type UserTotalsRow = Static<typeof UserTotalsRow>;

export type TokensRow = Static<typeof TokensRow>;
export type TokensModelRow = Static<typeof TokensModelRow>;
export type TokensTeamRow = Static<typeof TokensTeamRow>;
export type ActivityTeamRow = Static<typeof ActivityTeamRow>;
export type ModelUsage = Static<typeof ModelUsage>;
export type ToolsRow = Static<typeof ToolsRow>;
export type ActivityRow = Static<typeof ActivityRow>;
export type ProductivityRow = Static<typeof ProductivityRow>;
export type UserRow = Static<typeof UserRow>;

export const DailyUsageQuery = Type.Object(range);
export const DailyUsageResponse = envelope(UserRow);

/** What a principal, or the organization, has used so far today (UTC): today's user-day rows as they stand. */
const TodaySums = {
  billable_tokens: Type.Integer({ description: 'Standard Credits so far today, rounded once' }),
  tokens: Type.Integer({ description: 'Input, output, cache read and cache write tokens so far today, summed' }),
  sessions: Int,
  tool_calls: Int,
};
export const TodayUsageResponse = Type.Object({
  date: Type.String({ description: 'Today, YYYY-MM-DD (UTC)' }),
  mine: Type.Object(TodaySums, { description: "The caller's own usage so far today" }),
  organization: Type.Union(
    [
      Type.Object({
        ...TodaySums,
        active_users: Type.Integer({ description: 'Principals with any event today' }),
        first_active_date: Type.Union([DateOut, Type.Null()], {
          description: 'The first day with any usage of the organization (native events or OTLP); null until the first arrives',
        }),
      }),
      Type.Null(),
    ],
    { description: "The organization's usage so far today, for owners and managers; null for members and guests" },
  ),
});
export type TodayUsageResponse = Static<typeof TodayUsageResponse>;
