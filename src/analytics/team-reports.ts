import { tokenSums } from './credits.js';
import { byText } from './day-reports.js';
import type { ActivityTeamRow, TokensTeamRow } from './schemas.js';
import type { TeamTokensDay } from './team-store.js';

/** A team's name on a day (team-store.ts teamNameOn). */
type NameOn = (teamId: string, day: string) => string;

const byDateThenKey = (x: { date: string; group_key: string }, y: { date: string; group_key: string }) =>
  byText(x.date, y.date) || byText(x.group_key, y.group_key);

/** /tokens?group_by=team rows: one per team and day with usage, credits rounded once per row. */
export function tokensByTeam(rows: TeamTokensDay[], nameOn: NameOn): TokensTeamRow[] {
  return rows.map((r) => ({ date: r.date, group_key: r.team_id, team_name: nameOn(r.team_id, r.date), ...tokenSums(r) })).sort(byDateThenKey);
}

/** /activity?group_by=team rows: one per team and day with an active member. */
export function activityByTeam(rows: { date: string; team_id: string; dau: number }[], nameOn: NameOn): ActivityTeamRow[] {
  return rows.map((r) => ({ date: r.date, group_key: r.team_id, team_name: nameOn(r.team_id, r.date), daily_active_users: Number(r.dau) })).sort(byDateThenKey);
}
