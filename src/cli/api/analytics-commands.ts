import { UsageError } from '../../core/cli/args.js';
import { addDays, isDay, utcDay } from '../../core/days.js';
import { unwrap } from '../../client/api-client.js';
import { flag, type ApiCommand, type CommandContext, type FlagSpec } from './command.js';
import { printList } from './print.js';
import { findTeam, UUID } from './teams-commands.js';
import { lastLevelRows } from '../../client/repository-rows.js';

/** --from and --to, each defaulting so that the range is the last 30 closed (UTC) days. */
export function dateRange(ctx: CommandContext, now = Date.now()): { startDate: string; endDate: string } {
  const to = flag(ctx, 'to');
  const from = flag(ctx, 'from');
  for (const [name, v] of [
    ['to', to],
    ['from', from],
  ] as const) {
    if (v !== undefined && !isDay(v)) throw new UsageError(`--${name} must be a date YYYY-MM-DD, got ${v}.`);
  }
  const endDate = to ?? addDays(utcDay(now), -1);
  const startDate = from ?? addDays(endDate, -29);
  return { startDate, endDate };
}

const rangeFlags: Record<string, FlagSpec> = {
  from: { type: 'string', value: 'DATE', description: 'First day, YYYY-MM-DD (UTC; default: 29 days before --to)' },
  to: { type: 'string', value: 'DATE', description: 'Last day, inclusive (default: yesterday, the last closed day)' },
};
const groupBy = (value: string): Record<string, FlagSpec> => ({
  'group-by': { type: 'string', value: 'FIELD', choices: [value], description: `One row per ${value} per day` },
});
const groupByOrTeam = (value: string): Record<string, FlagSpec> => ({
  'group-by': {
    type: 'string',
    value: 'FIELD',
    choices: [value, 'team', 'repository'],
    description: `One row per ${value} (or team: per team, each person in every team they belonged to that day; or repository) per day`,
  },
});
const repositoryFlag: Record<string, FlagSpec> = {
  repository: { type: 'string', value: 'REPO', description: 'With --group-by repository: only this repository (its id or any remote URL of it)' },
};
const teamFlag: Record<string, FlagSpec> = {
  team: {
    type: 'string',
    value: 'TEAM',
    description: "Only this team's members, on the days they belonged to it: its name (any case) or id (a deleted team's by id)",
  },
};

/** `team_id` for --team: an id as it is (a deleted team has no name to find it by), else the team of that name. */
async function teamQuery(ctx: CommandContext): Promise<{ team_id?: string }> {
  const team = flag(ctx, 'team');
  if (team === undefined) return {};
  return { team_id: UUID.test(team) ? team : (await findTeam(ctx.api(), team)).id };
}
const breakdown = (choices: string[]): Record<string, FlagSpec> => ({
  breakdown: { type: 'string', value: 'FIELD', choices, description: 'One row per entry of this breakdown list (table and csv)' },
});
const outputs = ['table', 'json', 'csv'] as const;

const repositoryQuery = (ctx: CommandContext): { repository?: string } => {
  const repository = flag(ctx, 'repository');
  return repository === undefined ? {} : { repository };
};

export const analyticsRepositories: ApiCommand = {
  name: 'analytics repositories',
  summary:
    "Each repository's credits, tokens, sessions, people, commits, pull requests and credits per merged PR, with its readiness level (table and csv: the last day's); " +
    '--by-level for the comparison of readiness levels.',
  flags: {
    ...rangeFlags,
    repository: { type: 'string', value: 'REPO', description: 'Only this repository (its id or any remote URL of it)' },
    'by-level': { type: 'boolean', description: 'Readiness pays? Credits per merged PR, sessions per PR and tool error rate by readiness level' },
  },
  outputs,
  async run(ctx) {
    const query = { ...dateRange(ctx), ...repositoryQuery(ctx) };
    if (ctx.values['by-level'] === true) {
      const body = await unwrap(ctx.api().GET('/api/v1/analytics/repositories/readiness', { params: { query } }));
      printList(ctx, body, body.data as Record<string, unknown>[]);
      return 0;
    }
    const body = await unwrap(ctx.api().GET('/api/v1/analytics/repositories', { params: { query } }));
    const rows = lastLevelRows(body.data);
    printList(ctx, body, rows, {
      columns: [
        'repository',
        'billable_tokens',
        'tokens',
        'sessions',
        'active_people',
        'git_commits',
        'git_prs_created',
        'git_prs_merged',
        'credits_per_merged_pr',
        'level',
      ],
    });
    return 0;
  },
};

const groupFlag = (ctx: CommandContext) => flag(ctx, 'group-by');

export const analyticsTokens: ApiCommand = {
  name: 'analytics tokens',
  summary:
    'Credits (billable_tokens) and tokens per day, by model and by user; --group-by model|team|repository for one row per model, team or repository per day; --team for one team.',
  flags: { ...rangeFlags, ...groupByOrTeam('model'), ...breakdown(['by_model', 'by_user']), ...teamFlag, ...repositoryFlag },
  outputs,
  async run(ctx) {
    const group = groupFlag(ctx) as 'model' | 'team' | 'repository' | undefined;
    const query = { ...dateRange(ctx), ...(await teamQuery(ctx)), ...repositoryQuery(ctx), ...(group ? { group_by: group } : {}) };
    const body = await unwrap(ctx.api().GET('/api/v1/analytics/tokens', { params: { query } }));
    printList(ctx, body, body.data as Record<string, unknown>[]);
    return 0;
  },
};

export const analyticsTools: ApiCommand = {
  name: 'analytics tools',
  summary: 'Tool calls, MCP servers, skills, slash commands, hooks and autonomy per day; --group-by tool_name for one row per tool per day.',
  flags: { ...rangeFlags, ...groupBy('tool_name'), ...breakdown(['by_tool', 'mcp_by_server', 'skills_by_name', 'slash_commands_by_name', 'hooks_by_event']) },
  outputs,
  async run(ctx) {
    const group = groupFlag(ctx) as 'tool_name' | undefined;
    const body = await unwrap(ctx.api().GET('/api/v1/analytics/tools', { params: { query: { ...dateRange(ctx), ...(group ? { group_by: group } : {}) } } }));
    printList(ctx, body, body.data as Record<string, unknown>[]);
    return 0;
  },
};

export const analyticsActivity: ApiCommand = {
  name: 'analytics activity',
  summary:
    'Daily, weekly and monthly active users, by client, with sessions and messages; --group-by client|team|repository for one row per client, team or repository per day; --team for one team.',
  flags: { ...rangeFlags, ...groupByOrTeam('client'), ...teamFlag, ...repositoryFlag },
  outputs,
  async run(ctx) {
    const group = groupFlag(ctx) as 'client' | 'team' | 'repository' | undefined;
    const query = { ...dateRange(ctx), ...(await teamQuery(ctx)), ...repositoryQuery(ctx), ...(group ? { group_by: group } : {}) };
    const body = await unwrap(ctx.api().GET('/api/v1/analytics/activity', { params: { query } }));
    printList(ctx, body, body.data as Record<string, unknown>[]);
    return 0;
  },
};

export const analyticsProductivity: ApiCommand = {
  name: 'analytics productivity',
  summary: 'Files created and edited (by extension and language), commits and pull requests per day.',
  flags: { ...rangeFlags, ...breakdown(['by_extension', 'by_language']) },
  outputs,
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v1/analytics/productivity', { params: { query: dateRange(ctx) } }));
    printList(ctx, body, body.data as Record<string, unknown>[]);
    return 0;
  },
};

type UsersPage = Awaited<ReturnType<typeof usersPage>>;
const usersPage = (ctx: CommandContext, range: { startDate: string; endDate: string; team_id?: string }, cursor?: string) =>
  unwrap(ctx.api().GET('/api/v1/analytics/users', { params: { query: { ...range, limit: 100, ...(cursor ? { cursor } : {}) } } }));

export const analyticsUsers: ApiCommand = {
  name: 'analytics users',
  summary:
    "One row per user per active day, every page to the end (json: one body of the API's shape holding every row, with has_more false); --team for one team's members on their days in it.",
  flags: { ...rangeFlags, ...teamFlag },
  outputs,
  async run(ctx) {
    const range = { ...dateRange(ctx), ...(await teamQuery(ctx)) };
    const rows: UsersPage['data'] = [];
    let page = await usersPage(ctx, range);
    rows.push(...page.data);
    while (page.meta.has_more && page.meta.next_cursor) {
      page = await usersPage(ctx, range, page.meta.next_cursor);
      rows.push(...page.data);
    }
    const body = { data: rows, meta: { ...page.meta, has_more: false, next_cursor: null } };
    printList(ctx, body, rows as Record<string, unknown>[], {
      columns: [
        'user_email',
        'date',
        'billable_tokens',
        'tool_calls',
        'primary_model',
        'sessions',
        'messages',
        'files_edited',
        'git_commits',
        'git_prs_created',
        'delegation_level',
        'languages',
      ],
    });
    return 0;
  },
};

export const analyticsCommands = [analyticsTokens, analyticsTools, analyticsActivity, analyticsProductivity, analyticsUsers, analyticsRepositories];
