import { Type, type Static } from '@sinclair/typebox';
import { DateString } from '../core/validation/date.js';

const DateParam = (what: string) => DateString(`${what} (YYYY-MM-DD, UTC), before today; the range spans at most 366 days`);
/** The `repository` filter: a canonical id or any URL of the repository (core's parser makes it canonical). */
export const RepositoryParam = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'Only this repository (with group_by=repository, or the repositories reports): its id (github.com/acme/api) or any remote URL of it',
  }),
);
export const RepositoriesQuery = Type.Object({
  startDate: DateParam('First day'),
  endDate: DateParam('Last day, inclusive'),
  repository: RepositoryParam,
});
export type RepositoriesQuery = Static<typeof RepositoriesQuery>;

const Int = Type.Integer();
const Ratio = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Meta = Type.Object({ org_id: Type.String(), start_date: Type.String(), end_date: Type.String() });

export const RepositoryRow = Type.Object({
  repository: Type.String({ description: 'The canonical repository id (host/owner/name), as readiness reports name it' }),
  billable_tokens: Type.Integer({ description: 'Standard Credits over the range, rounded once' }),
  input_tokens: Int,
  output_tokens: Int,
  cache_read_tokens: Int,
  cache_write_tokens: Int,
  tokens: Type.Integer({ description: 'Input, output, cache read and cache write tokens, summed' }),
  sessions: Int,
  active_people: Type.Integer({ description: 'People with any event of a session of this repository in the range, each once' }),
  tool_calls: Int,
  tool_errors: Int,
  git_commits: Int,
  git_prs_created: Int,
  git_prs_merged: Int,
  credits_per_merged_pr: Ratio('Standard Credits per merged pull request, to 2 decimals; null without a merged pull request'),
  latest_report_id: Type.Union([Type.String(), Type.Null()], { description: "The repository's newest readiness report; null without one" }),
  readiness: Type.Array(
    Type.Object({
      date: Type.String(),
      level: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], {
        description: 'The level of the latest report at or before the day; null before any',
      }),
    }),
    { description: "The repository's readiness level on each day of the range (from 2026-01-14 on)" },
  ),
});
export const RepositoriesResponse = Type.Object({ data: Type.Array(RepositoryRow), meta: Meta });
export type RepositoryRow = Static<typeof RepositoryRow>;

/** A by-level figure stands only when at least this many repositories stand behind it. */
export const MIN_REPOSITORIES = 3;

export const LevelRow = Type.Object({
  level: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'Readiness level; null: days before any report' }),
  repositories: Type.Integer({ description: 'Repositories with usage on a day at this level' }),
  days: Type.Integer({ description: 'Repository-days with usage at this level' }),
  billable_tokens: Int,
  sessions: Int,
  tool_calls: Int,
  tool_errors: Int,
  git_prs_created: Int,
  git_prs_merged: Int,
  credits_per_merged_pr: Ratio(`Standard Credits per merged pull request (2 decimals); null with fewer than ${MIN_REPOSITORIES} repositories or no merged PR`),
  sessions_per_pr: Ratio(`Sessions per pull request created (2 decimals); null with fewer than ${MIN_REPOSITORIES} repositories or no PR`),
  tool_error_rate: Ratio(`Tool calls that ended in an error, as a share (4 decimals); null with fewer than ${MIN_REPOSITORIES} repositories or no tool call`),
});
export const ReadinessPaysResponse = Type.Object({
  data: Type.Array(LevelRow, { description: 'Levels 1 to 5, then the days without a report (level null)' }),
  meta: Type.Object({ ...Meta.properties, min_repositories: Type.Integer({ description: 'Repositories a figure needs behind it' }) }),
});
export type LevelRow = Static<typeof LevelRow>;
