import type { Queryable } from '../core/db/db.js';

export interface Policy {
  mode: 'off' | 'warn' | 'block';
  thresholds: number[];
  unreachable: 'open' | 'closed';
}

export interface AuditRow {
  id: number;
  actor_id: string | null;
  actor_email: string | null;
  scope: 'global' | 'user' | 'policy' | 'team';
  target_email: string | null;
  target_team_id: string | null;
  target_team_name: string | null;
  old_limit: number | null;
  new_limit: number | null;
  old_policy: Policy | null;
  new_policy: Policy | null;
  changed_at: Date;
}

const policyColumns = `mode, thresholds, unreachable`;

export const limitsStore = {
  async getGlobal(db: Queryable, orgId: string): Promise<number | null> {
    const rows = await db.query<{ global_limit: number | null }>(`SELECT global_limit FROM org_usage_limits WHERE org_id = $1`, [orgId]);
    return rows[0]?.global_limit ?? null;
  },

  /** Reads the global limit and locks it until the transaction ends, so concurrent changes audit in order. */
  async lockGlobal(db: Queryable, orgId: string): Promise<number | null> {
    await db.query(`INSERT INTO org_usage_limits (org_id) VALUES ($1) ON CONFLICT (org_id) DO NOTHING`, [orgId]);
    const rows = await db.query<{ global_limit: number | null }>(`SELECT global_limit FROM org_usage_limits WHERE org_id = $1 FOR UPDATE`, [orgId]);
    return rows[0]?.global_limit ?? null;
  },

  async setGlobal(db: Queryable, orgId: string, limit: number | null): Promise<void> {
    await db.query(`UPDATE org_usage_limits SET global_limit = $2, updated_at = now() WHERE org_id = $1`, [orgId, limit]);
  },

  async listUserLimits(db: Queryable, orgId: string): Promise<{ email: string; limit: number }[]> {
    return db.query(
      `SELECT p.email, u.limit_value AS "limit" FROM user_usage_limits u JOIN principals p ON p.id = u.principal_id
       WHERE u.org_id = $1 ORDER BY p.email`,
      [orgId],
    );
  },

  async lockUserLimits(db: Queryable, principalIds: string[]): Promise<Map<string, number>> {
    const rows = await db.query<{ principal_id: string; limit_value: number }>(
      `SELECT principal_id, limit_value FROM user_usage_limits WHERE principal_id = ANY($1::uuid[]) FOR UPDATE`,
      [principalIds],
    );
    return new Map(rows.map((r) => [r.principal_id, r.limit_value]));
  },

  async setUserLimit(db: Queryable, orgId: string, principalId: string, limit: number | null): Promise<void> {
    if (limit === null) {
      await db.query(`DELETE FROM user_usage_limits WHERE principal_id = $1`, [principalId]);
      return;
    }
    await db.query(
      `INSERT INTO user_usage_limits (principal_id, org_id, limit_value) VALUES ($1, $2, $3)
       ON CONFLICT (principal_id) DO UPDATE SET limit_value = EXCLUDED.limit_value, updated_at = now()`,
      [principalId, orgId, limit],
    );
  },

  async effectiveLimits(db: Queryable, orgId: string, principalId: string): Promise<{ individual: number | null; global: number | null }> {
    const rows = await db.query<{ individual: number | null; global: number | null }>(
      `SELECT (SELECT limit_value FROM user_usage_limits WHERE principal_id = $2 AND org_id = $1) AS individual,
              (SELECT global_limit FROM org_usage_limits WHERE org_id = $1) AS global`,
      [orgId, principalId],
    );
    return rows[0] ?? { individual: null, global: null };
  },

  /** The stored policy, or undefined when the organization never set one (the defaults apply). */
  async getPolicy(db: Queryable, orgId: string): Promise<Policy | undefined> {
    const rows = await db.query<Policy>(`SELECT ${policyColumns} FROM org_usage_enforcement WHERE org_id = $1`, [orgId]);
    return rows[0];
  },

  /**
   * Reads the policy and locks it until the transaction ends, so concurrent changes audit in order.
   * A missing row is written with the defaults first: there would be no row to lock.
   */
  async lockPolicy(db: Queryable, orgId: string, defaults: Policy): Promise<Policy> {
    await db.query(`INSERT INTO org_usage_enforcement (org_id, ${policyColumns}) VALUES ($1, $2, $3::int[], $4) ON CONFLICT (org_id) DO NOTHING`, [
      orgId,
      defaults.mode,
      defaults.thresholds,
      defaults.unreachable,
    ]);
    const rows = await db.query<Policy>(`SELECT ${policyColumns} FROM org_usage_enforcement WHERE org_id = $1 FOR UPDATE`, [orgId]);
    return rows[0]!;
  },

  async setPolicy(db: Queryable, orgId: string, p: Policy): Promise<void> {
    await db.query(`UPDATE org_usage_enforcement SET mode = $2, thresholds = $3::int[], unreachable = $4, updated_at = now() WHERE org_id = $1`, [
      orgId,
      p.mode,
      p.thresholds,
      p.unreachable,
    ]);
  },

  async insertPolicyAudit(db: Queryable, e: { orgId: string; actorId: string; oldPolicy: Policy; newPolicy: Policy }): Promise<void> {
    await db.query(
      `INSERT INTO usage_limit_audit (org_id, actor_id, scope, old_policy, new_policy) VALUES ($1, $2, 'policy', $3::text::jsonb, $4::text::jsonb)`,
      [e.orgId, e.actorId, JSON.stringify(e.oldPolicy), JSON.stringify(e.newPolicy)],
    );
  },

  async insertAudit(
    db: Queryable,
    e: {
      orgId: string;
      actorId: string;
      scope: 'global' | 'user' | 'team';
      targetId: string | null;
      targetEmail: string | null;
      /** The team of a team budget's entry, with its name at the time. */
      team?: { id: string; name: string };
      oldLimit: number | null;
      newLimit: number | null;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO usage_limit_audit (org_id, actor_id, scope, target_principal_id, target_email, target_team_id, target_team_name, old_limit, new_limit)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [e.orgId, e.actorId, e.scope, e.targetId, e.targetEmail, e.team?.id ?? null, e.team?.name ?? null, e.oldLimit, e.newLimit],
    );
  },

  async listAudit(db: Queryable, orgId: string, page: { limit: number; before?: number }): Promise<AuditRow[]> {
    return db.query<AuditRow>(
      `SELECT a.id, a.actor_id, p.email AS actor_email, a.scope, a.target_email, a.target_team_id, a.target_team_name, a.old_limit, a.new_limit, a.old_policy, a.new_policy, a.changed_at
       FROM usage_limit_audit a LEFT JOIN principals p ON p.id = a.actor_id
       WHERE a.org_id = $1 AND ($2::bigint IS NULL OR a.id < $2::bigint)
       ORDER BY a.id DESC LIMIT $3`,
      [orgId, page.before ?? null, page.limit],
    );
  },
};
