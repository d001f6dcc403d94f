import type { Db, Queryable } from '../core/db/db.js';
import type { UserDayCounter } from './rollups.js';

/** The user-day counters a /users row shows or derives from (user-report.ts). */
const USER_ROW_COUNTERS = [
  'tool_calls',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
  'sessions',
  'sessions_auto_high',
  'sessions_auto_medium',
  'sessions_auto_low',
  'sessions_spec',
  'sessions_manual',
  'messages',
  'user_messages',
] as const satisfies readonly UserDayCounter[];
const userDayCounters = USER_ROW_COUNTERS.map((c) => `u.${c}`).join(', ');

/**
 * Every read takes the organization and a day range [$2, $3] (dates) and reads only rollup rows of
 * those days; with `teamId`, the reads that take it (analytics by team) only the user-days of the
 * team's members on days they belonged to it.
 */
export type Range = { orgId: string; from: string; to: string; teamId?: string };
const params = (r: Range) => [r.orgId, r.from, r.to];

/** SQL: the user-day row `u` is of a day its user belonged to team `param` (migration 0064: a span covers the day). */
const inTeam = (param: string): string =>
  `EXISTS (SELECT 1 FROM team_membership_spans s WHERE s.org_id = u.org_id AND s.principal_id = u.user_id AND s.team_id = ${param}::uuid
     AND s.first_day <= u.day AND (s.last_day IS NULL OR s.last_day >= u.day))`;
/** The team condition of a read, as parameter `$n`, and its parameters: the query stays as it was without a team. */
const team = (teamId: string | undefined, n: number) => (teamId === undefined ? { sql: '', params: [] } : { sql: ` AND ${inTeam(`$${n}`)}`, params: [teamId] });

export interface ActivityDay {
  date: string;
  dau: number;
  terminal_ui: number;
  web: number;
  non_interactive_cli: number;
  sessions: number;
  messages: number;
  user_messages: number;
}

export interface ToolsDay {
  date: string;
  tool_calls: number;
  tools_auto_high: number;
  tools_auto_medium: number;
  tools_auto_low: number;
  tools_manual: number;
  mcp_users: number;
  web_users: number;
  skill_calls: number;
  slash_commands: number;
  hooks: number;
  sessions: number;
  user_messages: number;
  ratio_avg: number;
  ratio_p50: number;
  ratio_p90: number;
}

export interface ModelRow {
  date: string;
  user_id: string;
  user_email: string | null;
  model: string;
  tier: string;
  credit_units: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export type ModelDayRow = Omit<ModelRow, 'user_id' | 'user_email' | 'tier'>;

export interface CounterRow {
  date: string;
  kind: string;
  name: string;
  name2: string;
  name3: string;
  count: number;
}

export interface UserDayRow {
  date: string;
  user_id: string;
  user_email: string | null;
  [counter: string]: unknown;
  languages: string[];
  last_session_level: string | null;
  primary_model: string | null;
  primary_model_tier: string | null;
}

export const analyticsStore = {
  async activityDays(db: Queryable, r: Range): Promise<ActivityDay[]> {
    return db.query<ActivityDay>(
      `SELECT day::text AS date, count(*)::int AS dau,
              count(*) FILTER (WHERE events_terminal_ui > 0)::int AS terminal_ui,
              count(*) FILTER (WHERE events_web > 0)::int AS web,
              count(*) FILTER (WHERE events_non_interactive_cli > 0)::int AS non_interactive_cli,
              sum(sessions)::bigint AS sessions, sum(messages)::bigint AS messages, sum(user_messages)::bigint AS user_messages
       FROM analytics_user_day u WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date${team(r.teamId, 4).sql} GROUP BY day`,
      [...params(r), ...team(r.teamId, 4).params],
    );
  },

  /**
   * Each user's active days in the range and the 29 days before it, as day numbers from the
   * first of those days (see active-windows.ts): one row per user, read from the user-day rollup.
   */
  async activeDaysByUser(db: Db, r: Range): Promise<number[][]> {
    const rows = await db.queryMany<{ days: number[] }>(
      `SELECT array_agg(day - ($2::date - 29)) AS days FROM analytics_user_day u
       WHERE org_id = $1 AND day BETWEEN $2::date - 29 AND $3::date${team(r.teamId, 4).sql} GROUP BY user_id`,
      [...params(r), ...team(r.teamId, 4).params],
    );
    return rows.map((x) => x.days);
  },

  async toolsDays(db: Db, r: Range): Promise<ToolsDay[]> {
    return db.queryMany<ToolsDay>(
      `SELECT day::text AS date,
              sum(tool_calls)::bigint AS tool_calls, sum(tools_auto_high)::bigint AS tools_auto_high,
              sum(tools_auto_medium)::bigint AS tools_auto_medium, sum(tools_auto_low)::bigint AS tools_auto_low,
              sum(tools_manual)::bigint AS tools_manual,
              count(*) FILTER (WHERE mcp_calls > 0)::int AS mcp_users, count(*) FILTER (WHERE events_web > 0)::int AS web_users,
              sum(skill_calls)::bigint AS skill_calls, sum(slash_commands)::bigint AS slash_commands, sum(hooks)::bigint AS hooks,
              sum(sessions)::bigint AS sessions, sum(user_messages)::bigint AS user_messages,
              avg(tool_calls::float8 / GREATEST(user_messages, 1))::float8 AS ratio_avg,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY tool_calls::float8 / GREATEST(user_messages, 1))::float8 AS ratio_p50,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY tool_calls::float8 / GREATEST(user_messages, 1))::float8 AS ratio_p90
       FROM analytics_user_day WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date GROUP BY day`,
      params(r),
    );
  },

  async counters(db: Db, r: Range, kinds: string[]): Promise<CounterRow[]> {
    return db.queryMany<CounterRow>(
      `SELECT day::text AS date, kind, name, name2, name3, count FROM analytics_day_counter
       WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date AND kind = ANY($4::text[])`,
      [...params(r), kinds],
    );
  },

  async productivityDays(db: Queryable, r: Range) {
    return db.query<{ date: string; files_created: number; files_edited: number; git_commits: number; git_prs_created: number }>(
      `SELECT day::text AS date, sum(files_created)::bigint AS files_created, sum(files_edited)::bigint AS files_edited,
              sum(git_commits)::bigint AS git_commits, sum(git_prs_created)::bigint AS git_prs_created
       FROM analytics_user_day WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date GROUP BY day`,
      params(r),
    );
  },

  /** The version of each day of the range that has rollups (see day-cache.ts). */
  async dayVersions(db: Queryable, r: Range): Promise<Map<string, string>> {
    const rows = await db.query<{ date: string; version: string }>(
      `SELECT day::text AS date, version::text AS version FROM analytics_day_version WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date`,
      params(r),
    );
    return new Map(rows.map((x) => [x.date, x.version]));
  },

  /** Model usage per user, day, model and tier, on the days given (with `teamId`, of its members on their days in it). */
  async modelRows(db: Db, orgId: string, days: string[], teamId?: string): Promise<ModelRow[]> {
    const t = team(teamId, 3);
    return db.queryMany<ModelRow>(
      `SELECT u.day::text AS date, u.user_id, p.email AS user_email, u.model, u.tier, u.credit_units::text AS credit_units,
              u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens
       FROM analytics_user_day_model u LEFT JOIN principals p ON p.id = u.user_id
       WHERE u.org_id = $1 AND u.day = ANY($2::date[])${t.sql}`,
      [orgId, days, ...t.params],
    );
  },

  /** Model usage per day and model, over users and tiers (group_by=model), on the days given (with `teamId`, of its members). */
  async modelsByDay(db: Db, orgId: string, days: string[], teamId?: string) {
    const t = team(teamId, 3);
    return db.queryMany<ModelDayRow>(
      `SELECT day::text AS date, model, sum(credit_units)::text AS credit_units, sum(input_tokens)::bigint AS input_tokens,
              sum(output_tokens)::bigint AS output_tokens, sum(cache_read_tokens)::bigint AS cache_read_tokens,
              sum(cache_write_tokens)::bigint AS cache_write_tokens
       FROM analytics_user_day_model u WHERE org_id = $1 AND day = ANY($2::date[])${t.sql} GROUP BY day, model`,
      [orgId, days, ...t.params],
    );
  },

  /** The users active in the range after `cursor` (with a team, on a day they belonged to it), by id: at most `limit`. */
  async activeUsersPage(db: Queryable, r: Range, cursor: string | null, limit: number): Promise<string[]> {
    const t = team(r.teamId, 6);
    const rows = await db.query<{ user_id: string }>(
      // One index probe per principal of the organization, instead of reading every user-day of the range.
      `SELECT p.id AS user_id FROM principals p
       WHERE p.org_id = $1 AND ($4::uuid IS NULL OR p.id > $4::uuid)
         AND EXISTS (SELECT 1 FROM analytics_user_day u WHERE u.org_id = $1 AND u.user_id = p.id AND u.day BETWEEN $2::date AND $3::date${t.sql})
       ORDER BY p.id LIMIT $5`,
      [...params(r), cursor, limit, ...t.params],
    );
    return rows.map((x) => x.user_id);
  },

  /** The user-day rows of these users on these days (dates, ascending). */
  async userDays(db: Db, orgId: string, days: string[], userIds: string[]): Promise<UserDayRow[]> {
    return db.queryMany<UserDayRow>(
      // The range bounds the index scan of each user; the list picks the days asked for in it.
      `SELECT u.day::text AS date, u.user_id, p.email AS user_email, ${userDayCounters}, u.credit_units::text AS credit_units,
              u.languages, u.last_session_level, u.primary_model, u.primary_model_tier
       FROM analytics_user_day u LEFT JOIN principals p ON p.id = u.user_id
       WHERE u.org_id = $1 AND u.user_id = ANY($2::uuid[]) AND u.day BETWEEN $3::date AND $4::date AND u.day = ANY($5::date[])`,
      [orgId, userIds, days[0], days[days.length - 1], days],
    );
  },

  /** Each user's latest session before `before`: the fallback of a day without sessions. */
  async lastSessionLevels(db: Queryable, orgId: string, userIds: string[], before: string): Promise<Map<string, string>> {
    const rows = await db.query<{ user_id: string; level: string }>(
      // Per user, the index on (org, user, day) read backwards from the range to the first day with sessions.
      `SELECT u.id AS user_id, l.level FROM unnest($2::uuid[]) AS u(id)
       CROSS JOIN LATERAL (
         SELECT last_session_level AS level FROM analytics_user_day
         WHERE org_id = $1 AND user_id = u.id AND day < $3::date AND sessions > 0
         ORDER BY day DESC LIMIT 1
       ) AS l`,
      [orgId, userIds, before],
    );
    return new Map(rows.map((x) => [x.user_id, x.level]));
  },

  /**
   * Every user of the organization (and each service account active in the range) with its sums
   * over the range's user-day rows, by id. One aggregate of the user-day rollup of the range.
   */
  async userTotals(db: Queryable, r: Range) {
    return db.query<{
      user_id: string;
      user_email: string | null;
      user_name: string;
      role: string;
      active_days: number;
      last_active_date: string | null;
      credit_units: string;
      tool_calls: number;
      sessions: number;
      messages: number;
      user_messages: number;
      files_created: number;
      files_edited: number;
      git_commits: number;
      git_prs_created: number;
    }>(
      `SELECT p.id AS user_id, p.email AS user_email, p.name AS user_name, p.role,
              coalesce(t.active_days, 0)::int AS active_days, t.last_active_date, coalesce(t.credit_units, 0)::text AS credit_units,
              coalesce(t.tool_calls, 0)::bigint AS tool_calls, coalesce(t.sessions, 0)::bigint AS sessions,
              coalesce(t.messages, 0)::bigint AS messages, coalesce(t.user_messages, 0)::bigint AS user_messages,
              coalesce(t.files_created, 0)::bigint AS files_created, coalesce(t.files_edited, 0)::bigint AS files_edited,
              coalesce(t.git_commits, 0)::bigint AS git_commits, coalesce(t.git_prs_created, 0)::bigint AS git_prs_created
       FROM principals p LEFT JOIN (
         SELECT user_id, count(*) AS active_days, max(day)::text AS last_active_date, sum(credit_units) AS credit_units,
                sum(tool_calls) AS tool_calls, sum(sessions) AS sessions, sum(messages) AS messages, sum(user_messages) AS user_messages,
                sum(files_created) AS files_created, sum(files_edited) AS files_edited, sum(git_commits) AS git_commits, sum(git_prs_created) AS git_prs_created
         FROM analytics_user_day u WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date${team(r.teamId, 4).sql} GROUP BY user_id
       ) t ON t.user_id = p.id
       WHERE p.org_id = $1 AND ${
         // With a team: its members on any day of the range, active or not.
         r.teamId === undefined
           ? `(p.kind = 'user' OR t.user_id IS NOT NULL)`
           : `EXISTS (SELECT 1 FROM team_membership_spans s WHERE s.org_id = $1 AND s.team_id = $4::uuid AND s.principal_id = p.id
                AND s.first_day <= $3::date AND (s.last_day IS NULL OR s.last_day >= $2::date))`
       }
       ORDER BY p.id`,
      [...params(r), ...team(r.teamId, 4).params],
    );
  },

  /** Sums of one day's user-day rows of the organization, or of one principal (`userId`): today so far. */
  async daySums(db: Queryable, orgId: string, day: string, userId: string | null) {
    const rows = await db.query<{ principals: number; credit_units: string; tokens: number; sessions: number; tool_calls: number }>(
      `SELECT count(*)::int AS principals, coalesce(sum(credit_units), 0)::text AS credit_units,
              coalesce(sum(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens), 0)::bigint AS tokens,
              coalesce(sum(sessions), 0)::bigint AS sessions, coalesce(sum(tool_calls), 0)::bigint AS tool_calls
       FROM analytics_user_day WHERE org_id = $1 AND day = $2::date AND ($3::uuid IS NULL OR user_id = $3::uuid)`,
      [orgId, day, userId],
    );
    return rows[0]!;
  },

  /** The organization's first day with a user-day row (the primary key's order): null before any usage arrives. */
  async firstActiveDay(db: Queryable, orgId: string): Promise<string | null> {
    const rows = await db.query<{ day: string }>(`SELECT day::text AS day FROM analytics_user_day WHERE org_id = $1 ORDER BY day LIMIT 1`, [orgId]);
    return rows[0]?.day ?? null;
  },

  /** The credit units these users (null: every principal, from the organization's day totals) used from one day to another, both included, all together. */
  async creditUnits(db: Queryable, orgId: string, userIds: readonly string[] | null, from: string, to: string): Promise<string> {
    const rows = await db.query<{ units: string | null }>(
      userIds === null
        ? `SELECT sum(credit_units)::text AS units FROM analytics_day_version WHERE org_id = $1 AND day BETWEEN $2::date AND $3::date`
        : `SELECT sum(credit_units)::text AS units FROM analytics_user_day
           WHERE org_id = $1 AND user_id = ANY($4::uuid[]) AND day BETWEEN $2::date AND $3::date`,
      userIds === null ? [orgId, from, to] : [orgId, from, to, userIds],
    );
    return rows[0]?.units ?? '0';
  },
};
