import type { Queryable } from '../core/db/db.js';
import { utcDay } from '../core/days.js';

/**
 * The teams' history for analytics by team (migration 0064): membership spans by UTC day and the
 * names a team had. Written in the transaction of each change of the teams service, read by the
 * analytics reports. Days are worked out here, from the service's clock, so that SQL compares
 * dates only and both engines agree whatever their session time zone.
 */
export const teamHistory = {
  /** These users joined the team now: a span from today, open. */
  async joined(tx: Queryable, orgId: string, teamId: string, principalIds: string[], now: Date): Promise<void> {
    if (principalIds.length === 0) return;
    await tx.query(
      `INSERT INTO team_membership_spans (org_id, team_id, principal_id, joined_at, first_day)
       SELECT $1, $2, unnest($3::uuid[]), $4, $5::date`,
      [orgId, teamId, principalIds, now, utcDay(now.getTime())],
    );
  },

  /** These users (null: every member, the team being deleted) left the team now: their open spans end today. */
  async left(tx: Queryable, teamId: string, principalIds: string[] | null, now: Date): Promise<void> {
    if (principalIds?.length === 0) return;
    await tx.query(
      `UPDATE team_membership_spans SET left_at = $3, last_day = $4::date
       WHERE team_id = $1 AND left_at IS NULL AND ($2::uuid[] IS NULL OR principal_id = ANY($2::uuid[]))`,
      [teamId, principalIds, now, utcDay(now.getTime())],
    );
  },

  /** The team got this name now (created or renamed). */
  async named(tx: Queryable, teamId: string, name: string, now: Date): Promise<void> {
    await tx.query(`INSERT INTO team_names (team_id, named_at, from_day, name) VALUES ($1, $2, $3::date, $4)`, [teamId, now, utcDay(now.getTime()), name]);
  },
};
