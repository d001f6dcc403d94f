import { DbError, isUniqueViolation, type Queryable } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Role } from '../core/identity/roles.js';

export interface TeamRow {
  id: string;
  name: string;
  monthly_budget_credits: number | null;
  /** 'scim' for a team SCIM created (only SCIM renames it). */
  managed_by: 'scim' | null;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  team_id: string;
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** The key two names clash on: the same letters in any case, in any Unicode composition. */
const nameKey = (name: string): string => name.normalize('NFC').toLowerCase();

const nameTaken = (name: string) => errors.conflict('name_taken', `A team named "${name}" already exists in this organization.`, { field: 'name' });

/** Translates the clash on the partial unique index (teams not deleted) into the domain's 409. */
async function guardName<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e, 'teams_org_name_key')) throw nameTaken(name);
    throw e;
  }
}

const teamColumns = 'id, name, monthly_budget_credits, managed_by, created_at, updated_at';

export const teamsStore = {
  async insert(tx: Queryable, t: { id: string; orgId: string; name: string; managedBy: 'scim' | null }, now: Date): Promise<void> {
    await guardName(t.name, () =>
      tx.query(`INSERT INTO teams (id, org_id, name, name_key, managed_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`, [
        t.id,
        t.orgId,
        t.name,
        nameKey(t.name),
        t.managedBy,
        now,
      ]),
    );
  },

  /** The teams of the organization not deleted, by name. */
  async list(db: Queryable, orgId: string): Promise<TeamRow[]> {
    return db.query<TeamRow>(`SELECT ${teamColumns} FROM teams WHERE org_id = $1 AND deleted_at IS NULL ORDER BY name_key, id`, [orgId]);
  },

  /** `count` teams of `list`, from the `offset`-th on, in its order. */
  async page(db: Queryable, orgId: string, offset: number, count: number): Promise<TeamRow[]> {
    return db.query<TeamRow>(`SELECT ${teamColumns} FROM teams WHERE org_id = $1 AND deleted_at IS NULL ORDER BY name_key, id LIMIT $2 OFFSET $3`, [
      orgId,
      count,
      offset,
    ]);
  },

  /** How many teams `list` holds. */
  async count(db: Queryable, orgId: string): Promise<number> {
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM teams WHERE org_id = $1 AND deleted_at IS NULL`, [orgId]);
    return rows[0]!.n;
  },

  /** A team not deleted; `lock` holds it until the transaction ends, so concurrent changes of its members apply in turn. */
  async find(db: Queryable, orgId: string, teamId: string, o: { lock?: boolean } = {}): Promise<TeamRow | undefined> {
    const rows = await db.query<TeamRow>(
      `SELECT ${teamColumns} FROM teams WHERE id = $1 AND org_id = $2 AND deleted_at IS NULL${o.lock ? ' FOR UPDATE' : ''}`,
      [teamId, orgId],
    );
    return rows[0];
  },

  async rename(tx: Queryable, teamId: string, name: string, now: Date): Promise<void> {
    await guardName(name, () => tx.query(`UPDATE teams SET name = $2, name_key = $3, updated_at = $4 WHERE id = $1`, [teamId, name, nameKey(name), now]));
  },

  async setBudget(tx: Queryable, teamId: string, budget: number | null, now: Date): Promise<void> {
    await tx.query(`UPDATE teams SET monthly_budget_credits = $2, updated_at = $3 WHERE id = $1`, [teamId, budget, now]);
  },

  /**
   * The teams not deleted with a budget, by name, each with its members' ids (none for a team
   * without members); with `memberOf`, only the teams that user is a member of.
   */
  async budgets(db: Queryable, orgId: string, memberOf?: string): Promise<{ id: string; name: string; budget: number; member_ids: string[] }[]> {
    return db.query(
      `SELECT t.id, t.name, t.monthly_budget_credits AS budget,
              coalesce(array_agg(m.principal_id::text ORDER BY m.principal_id) FILTER (WHERE m.principal_id IS NOT NULL), '{}') AS member_ids
       FROM teams t LEFT JOIN team_members m ON m.team_id = t.id
       WHERE t.org_id = $1 AND t.deleted_at IS NULL AND t.monthly_budget_credits IS NOT NULL
         AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.principal_id = $2::uuid))
       GROUP BY t.id, t.name, t.name_key, t.monthly_budget_credits
       ORDER BY t.name_key, t.id`,
      [orgId, memberOf ?? null],
    );
  },

  async touch(tx: Queryable, teamId: string, now: Date): Promise<void> {
    await tx.query(`UPDATE teams SET updated_at = $2 WHERE id = $1`, [teamId, now]);
  },

  /** Marks the team deleted; its row, name and members stay for the history. Whether a team was deleted now. */
  async softDelete(tx: Queryable, orgId: string, teamId: string, now: Date): Promise<boolean> {
    const rows = await tx.query(`UPDATE teams SET deleted_at = $3, updated_at = $3 WHERE id = $1 AND org_id = $2 AND deleted_at IS NULL RETURNING id`, [
      teamId,
      orgId,
      now,
    ]);
    return rows.length > 0;
  },

  /** The members of these teams, each with the user's current email, name and role, by email. */
  async members(db: Queryable, teamIds: string[]): Promise<MemberRow[]> {
    if (teamIds.length === 0) return [];
    return db.query<MemberRow>(
      `SELECT m.team_id, p.id, p.email, p.name, p.role FROM team_members m JOIN principals p ON p.id = m.principal_id
       WHERE m.team_id = ANY($1::uuid[]) ORDER BY p.email, p.id`,
      [teamIds],
    );
  },

  /** Adds these users to the team; those already in it stay as they were. The ids added. */
  async addMembers(tx: Queryable, teamId: string, principalIds: string[], now: Date): Promise<string[]> {
    if (principalIds.length === 0) return [];
    try {
      const rows = await tx.query<{ principal_id: string }>(
        `INSERT INTO team_members (team_id, principal_id, added_at) SELECT $1, unnest($2::uuid[]), $3
         ON CONFLICT (team_id, principal_id) DO NOTHING RETURNING principal_id`,
        [teamId, principalIds, now],
      );
      return rows.map((r) => r.principal_id);
    } catch (e) {
      // A user removed after the service found them, before this insert: they are gone, not a fault.
      if (e instanceof DbError && e.code === '23503' && e.constraint === 'team_members_principal_id_fkey') throw errors.notFound('User', 'user_not_found');
      throw e;
    }
  },

  /** Removes every member not in `keep` (all of them when it is empty). The ids removed. */
  async removeMembersExcept(tx: Queryable, teamId: string, keep: string[]): Promise<string[]> {
    const rows = await tx.query<{ principal_id: string }>(
      `DELETE FROM team_members WHERE team_id = $1 AND NOT (principal_id = ANY($2::uuid[])) RETURNING principal_id`,
      [teamId, keep],
    );
    return rows.map((r) => r.principal_id);
  },

  /** The ids removed: none or this one. */
  async removeMember(tx: Queryable, teamId: string, principalId: string): Promise<string[]> {
    const rows = await tx.query<{ principal_id: string }>(`DELETE FROM team_members WHERE team_id = $1 AND principal_id = $2 RETURNING principal_id`, [
      teamId,
      principalId,
    ]);
    return rows.map((r) => r.principal_id);
  },
};
