import type { Queryable } from '../core/db/db.js';

export interface ScimTokenRow {
  id: string;
  name: string;
  display_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A user as SCIM reads them: their principal (absent once deactivated) joined with what SCIM keeps. */
export interface ScimUserRow {
  id: string;
  user_name: string;
  name: string | null;
  active: boolean;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface ScimUserFields {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
}

// Users of the organization (principals of kind user) and SCIM's rows, including those whose
// principal was removed by a deactivation: one FULL JOIN over the organization's two sets, each
// narrowed to the ids asked for (when asked) inside, where the primary keys serve it. The
// principal's email wins over SCIM's userName: a user may change their own email in orgctl.
const usersQuery = (only: string) => `
  SELECT coalesce(p.id, s.id) AS id, coalesce(p.email, s.user_name) AS user_name, p.name, (p.id IS NOT NULL) AS active,
         s.external_id, s.given_name, s.family_name, s.display_name, coalesce(s.version, 0) AS version,
         coalesce(s.created_at, p.created_at) AS created_at, coalesce(s.updated_at, s.created_at, p.created_at) AS updated_at
  FROM (SELECT id, email, name, created_at FROM principals WHERE org_id = $1 AND kind = 'user'${only}) p
  FULL JOIN (SELECT * FROM scim_users WHERE org_id = $1${only}) s ON s.id = p.id
  ORDER BY created_at, id`;

const PAGE = `${usersQuery('')} LIMIT $2 OFFSET $3`;
const BY_IDS = usersQuery(' AND id = ANY($2::uuid[])');

export const scimStore = {
  async insertToken(tx: Queryable, t: { id: string; orgId: string; name: string; hash: string; prefix: string; createdBy: string; now: Date }): Promise<void> {
    await tx.query(`INSERT INTO scim_tokens (id, org_id, name, secret_hash, display_prefix, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      t.id,
      t.orgId,
      t.name,
      t.hash,
      t.prefix,
      t.now,
      t.createdBy,
    ]);
  },

  async listTokens(db: Queryable, orgId: string): Promise<ScimTokenRow[]> {
    return db.query<ScimTokenRow>(
      `SELECT id, name, display_prefix, created_at, revoked_at, last_used_at FROM scim_tokens WHERE org_id = $1 ORDER BY created_at DESC, id`,
      [orgId],
    );
  },

  /** Whether a token not yet revoked was revoked now. */
  async revokeToken(tx: Queryable, orgId: string, id: string, now: Date): Promise<boolean> {
    const rows = await tx.query(`UPDATE scim_tokens SET revoked_at = $3 WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL RETURNING id`, [id, orgId, now]);
    return rows.length > 0;
  },

  /** The organization of a token not revoked, by its hash; marks it used at most once a minute. */
  async useToken(tx: Queryable, hash: string, now: Date): Promise<{ id: string; org_id: string } | undefined> {
    const [row] = await tx.query<{ id: string; org_id: string; last_used_at: Date | null }>(
      `SELECT id, org_id, last_used_at FROM scim_tokens WHERE secret_hash = $1 AND revoked_at IS NULL`,
      [hash],
    );
    if (row && (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() >= 60_000))
      await tx.query(`UPDATE scim_tokens SET last_used_at = $2 WHERE id = $1`, [row.id, now]);
    return row;
  },

  /** The users in list order (created, then id), `limit` of them after the first `offset`. */
  async usersPage(db: Queryable, orgId: string, offset: number, limit: number): Promise<ScimUserRow[]> {
    return db.query<ScimUserRow>(PAGE, [orgId, limit, offset]);
  },

  /** How many users a list holds: the principals of kind user and the deactivated users SCIM keeps. */
  async countUsers(db: Queryable, orgId: string): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT id FROM principals WHERE org_id = $1 AND kind = 'user' UNION SELECT id FROM scim_users WHERE org_id = $1) u`,
      [orgId],
    );
    return row?.n ?? 0;
  },

  async user(db: Queryable, orgId: string, id: string): Promise<ScimUserRow | undefined> {
    const [row] = await db.query<ScimUserRow>(BY_IDS, [orgId, [id]]);
    return row;
  },

  /** The user whose userName this is: an active user's email, or a deactivated user's userName (both by index). */
  async userByName(db: Queryable, orgId: string, userName: string): Promise<ScimUserRow | undefined> {
    const ids = await db.query<{ id: string }>(
      `SELECT id FROM principals WHERE org_id = $1 AND email = $2 AND kind = 'user'
       UNION ALL
       SELECT s.id FROM scim_users s WHERE s.org_id = $1 AND s.user_name = $2 AND NOT EXISTS (SELECT 1 FROM principals p WHERE p.id = s.id)`,
      [orgId, userName],
    );
    if (ids.length === 0) return undefined;
    const [row] = await db.query<ScimUserRow>(BY_IDS, [orgId, ids.map((r) => r.id)]);
    return row;
  },

  async usersByExternalId(db: Queryable, orgId: string, externalId: string): Promise<ScimUserRow[]> {
    const ids = await db.query<{ id: string }>(`SELECT id FROM scim_users WHERE org_id = $1 AND external_id = $2`, [orgId, externalId]);
    return ids.length === 0 ? [] : db.query<ScimUserRow>(BY_IDS, [orgId, ids.map((r) => r.id)]);
  },

  /** Of these ids, those SCIM keeps as deactivated users (no principal). */
  async inactiveUserIds(db: Queryable, orgId: string, ids: string[]): Promise<Set<string>> {
    const rows = await db.query<{ id: string }>(
      `SELECT s.id FROM scim_users s WHERE s.org_id = $1 AND s.id = ANY($2::uuid[]) AND NOT EXISTS (SELECT 1 FROM principals p WHERE p.id = s.id)`,
      [orgId, ids],
    );
    return new Set(rows.map((r) => r.id));
  },

  /** SCIM's row of a user, new or replaced, its version moved on. */
  async saveUser(tx: Queryable, orgId: string, id: string, f: ScimUserFields, now: Date): Promise<void> {
    await tx.query(
      `INSERT INTO scim_users (id, org_id, user_name, external_id, given_name, family_name, display_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (id) DO UPDATE SET user_name = $3, external_id = $4, given_name = $5, family_name = $6, display_name = $7,
           updated_at = $8, version = scim_users.version + 1`,
      [id, orgId, f.userName, f.externalId, f.givenName, f.familyName, f.displayName, now],
    );
  },

  /** A deactivation or reactivation changes the resource without changing its fields. */
  async touchUser(tx: Queryable, id: string, now: Date): Promise<void> {
    await tx.query(`UPDATE scim_users SET updated_at = $2, version = version + 1 WHERE id = $1`, [id, now]);
  },

  async deleteUser(tx: Queryable, orgId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM scim_users WHERE id = $1 AND org_id = $2`, [id, orgId]);
  },

  /** The external ids and versions of the organization's SCIM groups, by team id. */
  async groups(db: Queryable, orgId: string): Promise<Map<string, { external_id: string | null; version: number }>> {
    const rows = await db.query<{ team_id: string; external_id: string | null; version: number }>(
      `SELECT team_id, external_id, version FROM scim_groups WHERE org_id = $1`,
      [orgId],
    );
    return new Map(rows.map((r) => [r.team_id, r]));
  },

  /** What `groups` holds of these teams only. */
  async groupsOf(db: Queryable, orgId: string, teamIds: string[]): Promise<Map<string, { external_id: string | null; version: number }>> {
    if (teamIds.length === 0) return new Map();
    const rows = await db.query<{ team_id: string; external_id: string | null; version: number }>(
      `SELECT team_id, external_id, version FROM scim_groups WHERE org_id = $1 AND team_id = ANY($2::uuid[])`,
      [orgId, teamIds],
    );
    return new Map(rows.map((r) => [r.team_id, r]));
  },

  async saveGroup(tx: Queryable, orgId: string, teamId: string, externalId: string | null | undefined): Promise<void> {
    await tx.query(
      `INSERT INTO scim_groups (team_id, org_id, external_id) VALUES ($1, $2, $3)
       ON CONFLICT (team_id) DO UPDATE SET external_id = CASE WHEN $4 THEN scim_groups.external_id ELSE $3 END, version = scim_groups.version + 1`,
      [teamId, orgId, externalId ?? null, externalId === undefined],
    );
  },
};
