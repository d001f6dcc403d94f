import type { Queryable } from '../db/db.js';
import type { PrincipalKind, Role } from './roles.js';
import type { Scope } from './scopes.js';

export interface PrincipalRow {
  id: string;
  org_id: string;
  org_name: string;
  kind: PrincipalKind;
  email: string | null;
  name: string;
  role: Role;
}

export interface ApiKeyRow {
  id: string;
  org_id: string;
  principal_id: string;
  principal_email: string | null;
  principal_name: string;
  principal_kind: PrincipalKind;
  principal_role: Role;
  name: string;
  display_prefix: string;
  scopes: Scope[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface CredentialRow extends PrincipalRow {
  key_id: string;
  scopes: Scope[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

const principalColumns = `p.id, p.org_id, o.name AS org_name, p.kind, p.email, p.name, p.role`;
const keyColumns = `k.id, k.org_id, k.principal_id, p.email AS principal_email, p.name AS principal_name,
  p.kind AS principal_kind, p.role AS principal_role, k.name, k.display_prefix, k.scopes, k.created_at, k.expires_at, k.revoked_at, k.last_used_at`;

export const identityStore = {
  async insertOrganization(db: Queryable, org: { id: string; name: string }): Promise<void> {
    await db.query(`INSERT INTO organizations (id, name) VALUES ($1, $2)`, [org.id, org.name]);
  },

  /** Owners with no key that still works (none made, or all revoked or expired). */
  async ownersWithoutKeys(db: Queryable, now: Date): Promise<{ orgName: string; email: string }[]> {
    return db.query(
      `SELECT o.name AS "orgName", p.email FROM principals p JOIN organizations o ON o.id = p.org_id
       WHERE p.role = 'owner' AND p.kind = 'user' AND NOT EXISTS (
         SELECT 1 FROM api_keys k WHERE k.principal_id = p.id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $1::timestamptz))
       ORDER BY o.name, p.email`,
      [now],
    );
  },
  async listOrganizations(db: Queryable): Promise<{ id: string; name: string }[]> {
    return db.query(`SELECT id, name FROM organizations ORDER BY created_at, id`);
  },

  async setPlan(db: Queryable, orgId: string, plan: string): Promise<string | undefined> {
    const [row] = await db.query<{ previous: string }>(
      `UPDATE organizations o SET plan = $2 FROM (SELECT plan AS previous FROM organizations WHERE id = $1) p WHERE o.id = $1 RETURNING p.previous`,
      [orgId, plan],
    );
    return row?.previous;
  },

  /** Each organization with how many users and service accounts it has. */
  async organizationSummaries(db: Queryable): Promise<{ id: string; name: string; plan: string; users: number; serviceAccounts: number; createdAt: string }[]> {
    return db.query(
      `SELECT o.id, o.name, o.plan, to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt",
              count(p.id) FILTER (WHERE p.kind = 'user')::int AS users,
              count(p.id) FILTER (WHERE p.kind = 'service_account')::int AS "serviceAccounts"
       FROM organizations o LEFT JOIN principals p ON p.org_id = o.id
       GROUP BY o.id, o.name, o.plan, o.created_at ORDER BY o.created_at, o.id`,
    );
  },

  /** The principals of an organization, users first (by email), then service accounts (by name), with their working keys. */
  async listPrincipals(
    db: Queryable,
    orgId: string,
    now: Date,
  ): Promise<{ id: string; kind: PrincipalKind; email: string | null; name: string; role: Role; activeKeys: number }[]> {
    return db.query(
      `SELECT p.id, p.kind, p.email, p.name, p.role,
              (SELECT count(*)::int FROM api_keys k
               WHERE k.principal_id = p.id AND k.revoked_at IS NULL
                 AND (k.expires_at IS NULL OR k.expires_at > $2::timestamptz)) AS "activeKeys"
       FROM principals p WHERE p.org_id = $1
       ORDER BY p.kind DESC, p.email, p.name, p.id`,
      [orgId, now],
    );
  },

  /** The service accounts of an organization by name, with their working keys. */
  async listServiceAccounts(
    db: Queryable,
    orgId: string,
    now: Date,
  ): Promise<{ id: string; name: string; role: 'manager' | 'member'; created_at: Date; active_keys: number }[]> {
    return db.query(
      `SELECT p.id, p.name, p.role, p.created_at,
              (SELECT count(*)::int FROM api_keys k
               WHERE k.principal_id = p.id AND k.revoked_at IS NULL
                 AND (k.expires_at IS NULL OR k.expires_at > $2::timestamptz)) AS active_keys
       FROM principals p WHERE p.org_id = $1 AND p.kind = 'service_account'
       ORDER BY p.name, p.id`,
      [orgId, now],
    );
  },

  async countOwners(db: Queryable, orgId: string): Promise<number> {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM principals WHERE org_id = $1 AND role = 'owner'`, [orgId]);
    return row?.n ?? 0;
  },

  /** A user's own name and email (either may stay); the organization's unique email index refuses one taken. */
  async updateProfile(db: Queryable, principalId: string, p: { name?: string; email?: string }): Promise<{ name: string; email: string | null } | undefined> {
    const [row] = await db.query<{ name: string; email: string | null }>(
      `UPDATE principals SET name = COALESCE($2, name), email = COALESCE($3, email) WHERE id = $1 RETURNING name, email`,
      [principalId, p.name ?? null, p.email ?? null],
    );
    return row;
  },

  async setRole(db: Queryable, principalId: string, role: Role): Promise<void> {
    await db.query(`UPDATE principals SET role = $2 WHERE id = $1`, [principalId, role]);
  },

  /** Removes a principal and its keys (they cascade). Its telemetry and analytics stay, keyed by its id. */
  async deletePrincipal(db: Queryable, principalId: string): Promise<void> {
    await db.query(`DELETE FROM principals WHERE id = $1`, [principalId]);
  },

  /** The organization a principal belongs to: ids are unique across organizations. */
  async orgOfPrincipal(db: Queryable, principalId: string): Promise<string | undefined> {
    const [row] = await db.query<{ org_id: string }>(`SELECT org_id FROM principals WHERE id = $1`, [principalId]);
    return row?.org_id;
  },

  async orgOfApiKey(db: Queryable, keyId: string): Promise<string | undefined> {
    const [row] = await db.query<{ org_id: string }>(`SELECT org_id FROM api_keys WHERE id = $1`, [keyId]);
    return row?.org_id;
  },

  async insertPrincipal(db: Queryable, p: { id: string; orgId: string; kind: PrincipalKind; email: string | null; name: string; role: Role }): Promise<void> {
    await db.query(`INSERT INTO principals (id, org_id, kind, email, name, role) VALUES ($1, $2, $3, $4, $5, $6)`, [
      p.id,
      p.orgId,
      p.kind,
      p.email,
      p.name,
      p.role,
    ]);
  },

  async findPrincipal(db: Queryable, orgId: string, by: { id: string } | { email: string }): Promise<PrincipalRow | undefined> {
    const [column, value] = 'id' in by ? ['p.id', by.id] : ['p.email', by.email];
    const rows = await db.query<PrincipalRow>(
      `SELECT ${principalColumns} FROM principals p JOIN organizations o ON o.id = p.org_id
       WHERE p.org_id = $1 AND ${column} = $2`,
      [orgId, value],
    );
    return rows[0];
  },

  async findUsersByIds(db: Queryable, orgId: string, ids: string[]): Promise<{ id: string }[]> {
    if (ids.length === 0) return [];
    return db.query(`SELECT id FROM principals WHERE org_id = $1 AND kind = 'user' AND id = ANY($2::uuid[])`, [orgId, ids]);
  },

  async findUsersByEmail(db: Queryable, orgId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    if (emails.length === 0) return [];
    return db.query(`SELECT id, email FROM principals WHERE org_id = $1 AND kind = 'user' AND email = ANY($2::text[])`, [orgId, emails]);
  },

  /** Links a client account id to a user; an id linked to someone else moves to this user. */
  async linkAccount(db: Queryable, orgId: string, accountId: string, principalId: string): Promise<void> {
    await db.query(
      `INSERT INTO account_links (org_id, account_id, principal_id) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, account_id) DO UPDATE SET principal_id = EXCLUDED.principal_id, created_at = now()`,
      [orgId, accountId, principalId],
    );
  },

  async unlinkAccount(db: Queryable, orgId: string, accountId: string): Promise<boolean> {
    return (await db.query(`DELETE FROM account_links WHERE org_id = $1 AND account_id = $2 RETURNING account_id`, [orgId, accountId])).length > 0;
  },

  async listAccountLinks(db: Queryable, orgId: string): Promise<{ account_id: string; principal_id: string; email: string; created_at: Date }[]> {
    return db.query(
      `SELECT l.account_id, l.principal_id, p.email, l.created_at FROM account_links l JOIN principals p ON p.id = l.principal_id
       WHERE l.org_id = $1 ORDER BY p.email, l.account_id`,
      [orgId],
    );
  },

  async usersByAccount(db: Queryable, orgId: string, accountIds: string[]): Promise<{ account_id: string; principal_id: string }[]> {
    if (accountIds.length === 0) return [];
    return db.query(`SELECT account_id, principal_id FROM account_links WHERE org_id = $1 AND account_id = ANY($2::text[])`, [orgId, accountIds]);
  },

  async insertApiKey(
    db: Queryable,
    k: {
      id: string;
      orgId: string;
      principalId: string;
      name: string;
      hash: string;
      prefix: string;
      scopes: readonly Scope[];
      expiresAt: Date | null;
      createdBy: string | null;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO api_keys (id, org_id, principal_id, name, secret_hash, display_prefix, scopes, expires_at, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9)`,
      [k.id, k.orgId, k.principalId, k.name, k.hash, k.prefix, k.scopes, k.expiresAt, k.createdBy],
    );
  },

  async findCredentialByHash(db: Queryable, hash: string): Promise<CredentialRow | undefined> {
    const rows = await db.query<CredentialRow>(
      `SELECT ${principalColumns}, k.id AS key_id, k.scopes, k.expires_at, k.revoked_at
       FROM api_keys k JOIN principals p ON p.id = k.principal_id JOIN organizations o ON o.id = p.org_id
       WHERE k.secret_hash = $1`,
      [hash],
    );
    return rows[0];
  },

  async findApiKey(db: Queryable, orgId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    const rows = await db.query<ApiKeyRow>(
      `SELECT ${keyColumns} FROM api_keys k JOIN principals p ON p.id = k.principal_id WHERE k.org_id = $1 AND k.id = $2`,
      [orgId, keyId],
    );
    return rows[0];
  },

  async listApiKeys(db: Queryable, orgId: string, principalId: string | undefined): Promise<ApiKeyRow[]> {
    return db.query<ApiKeyRow>(
      `SELECT ${keyColumns} FROM api_keys k JOIN principals p ON p.id = k.principal_id
       WHERE k.org_id = $1 AND ($2::uuid IS NULL OR k.principal_id = $2::uuid)
       ORDER BY k.created_at DESC, k.id`,
      [orgId, principalId ?? null],
    );
  },

  async revokeApiKey(db: Queryable, orgId: string, keyId: string, at: Date): Promise<void> {
    await db.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE org_id = $1 AND id = $2`, [orgId, keyId, at]);
  },

  async touchApiKey(db: Queryable, keyId: string, at: Date): Promise<void> {
    await db.query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, [keyId, at]);
  },
};
