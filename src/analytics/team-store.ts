import type { Db, Queryable } from '../core/db/db.js';
import type { Range } from './store.js';

/**
 * Analytics by team: reads of the user-day rollups joined to the teams' history (migration 0064).
 * A user-day belongs to a team when one of the user's membership spans of the team covers the
 * day; a person in several teams that day counts in each.
 */

/** SQL: the teams (each once) the user of the user-day row `u` belonged to that day. */
const teamsOfUserDay = `CROSS JOIN LATERAL (
  SELECT DISTINCT s.team_id FROM team_membership_spans s
  WHERE s.org_id = u.org_id AND s.principal_id = u.user_id AND s.first_day <= u.day AND (s.last_day IS NULL OR s.last_day >= u.day)
) AS m`;

export interface TeamTokensDay {
  date: string;
  team_id: string;
  credit_units: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface TeamSpan {
  user_id: string;
  first_day: string;
  last_day: string | null;
}

export const teamAnalyticsStore = {
  /** Whether the team is the organization's (deleted or not: its history stays). */
  async teamExists(db: Queryable, orgId: string, teamId: string): Promise<boolean> {
    return (await db.query(`SELECT 1 FROM teams WHERE id = $1 AND org_id = $2`, [teamId, orgId])).length > 0;
  },

  /** Every name each team of the organization was given, in the order given (id). */
  async names(db: Queryable, orgId: string): Promise<{ team_id: string; from_day: string; name: string }[]> {
    return db.query(
      `SELECT n.team_id, n.from_day::text AS from_day, n.name FROM team_names n JOIN teams t ON t.id = n.team_id WHERE t.org_id = $1 ORDER BY n.id`,
      [orgId],
    );
  },

  /** The membership spans of one team. */
  async spans(db: Queryable, orgId: string, teamId: string): Promise<TeamSpan[]> {
    return db.query(
      `SELECT principal_id AS user_id, first_day::text AS first_day, last_day::text AS last_day FROM team_membership_spans WHERE org_id = $1 AND team_id = $2`,
      [orgId, teamId],
    );
  },

  /** Credits and tokens per day and team on the days given (tokens, group_by=team). */
  async tokensByTeam(db: Db, orgId: string, days: string[]): Promise<TeamTokensDay[]> {
    return db.queryMany<TeamTokensDay>(
      `SELECT u.day::text AS date, m.team_id, sum(u.credit_units)::text AS credit_units, sum(u.input_tokens)::bigint AS input_tokens,
              sum(u.output_tokens)::bigint AS output_tokens, sum(u.cache_read_tokens)::bigint AS cache_read_tokens,
              sum(u.cache_write_tokens)::bigint AS cache_write_tokens
       FROM analytics_user_day u ${teamsOfUserDay}
       WHERE u.org_id = $1 AND u.day = ANY($2::date[]) GROUP BY u.day, m.team_id`,
      [orgId, days],
    );
  },

  /** Active users per day and team over the range (activity, group_by=team). */
  async activityByTeam(db: Queryable, r: Range): Promise<{ date: string; team_id: string; dau: number }[]> {
    return db.query(
      `SELECT u.day::text AS date, m.team_id, count(*)::int AS dau
       FROM analytics_user_day u ${teamsOfUserDay}
       WHERE u.org_id = $1 AND u.day BETWEEN $2::date AND $3::date GROUP BY u.day, m.team_id`,
      [r.orgId, r.from, r.to],
    );
  },
};

/** A team's name on each day: the last name it was given on or before the day. */
export function teamNameOn(names: { team_id: string; from_day: string; name: string }[]) {
  const byTeam = new Map<string, { from_day: string; name: string }[]>();
  for (const n of names) (byTeam.get(n.team_id) ?? byTeam.set(n.team_id, []).get(n.team_id)!).push(n);
  return (teamId: string, day: string): string => {
    let name = '';
    // In the order given: a later name from the same or an earlier day wins.
    for (const n of byTeam.get(teamId) ?? []) if (n.from_day <= day) name = n.name;
    return name;
  };
}

/** Whether a user belonged to the team on a day, by the team's spans. */
export function memberOn(spans: TeamSpan[]) {
  const byUser = new Map<string, TeamSpan[]>();
  for (const s of spans) (byUser.get(s.user_id) ?? byUser.set(s.user_id, []).get(s.user_id)!).push(s);
  return (userId: string, day: string): boolean => (byUser.get(userId) ?? []).some((s) => s.first_day <= day && (s.last_day === null || s.last_day >= day));
}
