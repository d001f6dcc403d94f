import type { Queryable } from '../db/db.js';
import type { Role } from '../identity/roles.js';
import type { PrincipalRow } from '../identity/store.js';
import type { ThrottlePolicy } from './sign-in-throttle.js';

export interface SessionPrincipalRow extends PrincipalRow {
  session_id: string;
  last_seen_at: Date;
}

export interface SessionRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  user_agent: string | null;
}

export interface InvitationRow {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
  has_password: boolean;
}

const principalColumns = `p.id, p.org_id, o.name AS org_name, p.kind, p.email, p.name, p.role`;

/**
 * The wait after `f.failures` failures, in milliseconds ($3 free failures, $4 the first wait, $5
 * the longest): none within the allowance, then doubling. The shift is capped so it cannot overflow.
 */
const WAIT_MS = `(CASE WHEN f.failures < $3::int THEN 0 ELSE LEAST($4::bigint << LEAST(f.failures - $3::int, 30), $5::bigint) END)`;

/** SQL of web sign-in: passwords, sessions, the setup token, invitations, attempt counters and failed sign-ins. */
export const accountsStore = {
  async passwordUsers(db: Queryable, email: string): Promise<(PrincipalRow & { password_hash: string })[]> {
    return db.query(
      `SELECT ${principalColumns}, p.password_hash FROM principals p JOIN organizations o ON o.id = p.org_id
       WHERE p.kind = 'user' AND p.email = $1 AND p.password_hash IS NOT NULL ORDER BY p.created_at, p.id`,
      [email],
    );
  },

  async passwordHash(db: Queryable, principalId: string): Promise<string | null | undefined> {
    const [row] = await db.query<{ password_hash: string | null }>(`SELECT password_hash FROM principals WHERE id = $1`, [principalId]);
    return row?.password_hash;
  },

  async setPassword(db: Queryable, principalId: string, passwordHash: string): Promise<void> {
    await db.query(`UPDATE principals SET password_hash = $2 WHERE id = $1`, [principalId, passwordHash]);
  },

  async insertSession(
    db: Queryable,
    s: { id: string; tokenHash: string; principalId: string; role: Role; now: Date; expiresAt: Date; userAgent: string | null },
  ): Promise<void> {
    await db.query(
      `INSERT INTO sessions (id, token_hash, principal_id, role, created_at, last_seen_at, expires_at, user_agent) VALUES ($1, $2, $3, $4, $5, $5, $6, $7)`,
      [s.id, s.tokenHash, s.principalId, s.role, s.now, s.expiresAt, s.userAgent],
    );
  },

  /** The principal of a live session: not past its absolute expiry, seen since `idleSince`, and its user still has the role it signed in with. */
  async sessionPrincipal(db: Queryable, tokenHash: string, now: Date, idleSince: Date): Promise<SessionPrincipalRow | undefined> {
    const [row] = await db.query<SessionPrincipalRow>(
      `SELECT ${principalColumns}, s.id AS session_id, s.last_seen_at
       FROM sessions s JOIN principals p ON p.id = s.principal_id AND p.role = s.role JOIN organizations o ON o.id = p.org_id
       WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`,
      [tokenHash, now, idleSince],
    );
    return row;
  },

  async touchSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
    await db.query(`UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`, [sessionId, now]);
  },

  async listSessions(db: Queryable, principalId: string, now: Date, idleSince: Date): Promise<SessionRow[]> {
    return db.query(
      `SELECT s.id, s.created_at, s.last_seen_at, s.expires_at, s.user_agent FROM sessions s JOIN principals p ON p.id = s.principal_id AND p.role = s.role
       WHERE s.principal_id = $1 AND s.expires_at > $2 AND s.last_seen_at > $3 ORDER BY s.last_seen_at DESC, s.id`,
      [principalId, now, idleSince],
    );
  },

  async deleteSession(db: Queryable, principalId: string, sessionId: string): Promise<boolean> {
    return (await db.query(`DELETE FROM sessions WHERE principal_id = $1 AND id = $2 RETURNING id`, [principalId, sessionId])).length > 0;
  },

  async deleteSessionByToken(db: Queryable, tokenHash: string): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
  },

  /** Ends every session of a user (all but `keep`, when given); expired ones of anyone go too. */
  async endSessions(db: Queryable, principalId: string, now: Date, keep?: string): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE (principal_id = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)) OR expires_at <= $3`, [
      principalId,
      keep ?? null,
      now,
    ]);
  },

  /** Owners of organizations none of whose owners has a password yet: who first-run setup is for. */
  async ownersAwaitingSetup(db: Queryable): Promise<{ id: string; org_id: string; email: string; org_name: string }[]> {
    return db.query(
      `SELECT DISTINCT ON (p.org_id) p.id, p.org_id, p.email, o.name AS org_name FROM principals p JOIN organizations o ON o.id = p.org_id
       WHERE p.kind = 'user' AND p.role = 'owner'
         AND NOT EXISTS (SELECT 1 FROM principals q WHERE q.org_id = p.org_id AND q.role = 'owner' AND q.password_hash IS NOT NULL)
       ORDER BY p.org_id, p.created_at, p.id`,
    );
  },

  async insertSetupToken(db: Queryable, t: { tokenHash: string; principalId: string; now: Date; expiresAt: Date }): Promise<void> {
    await db.query(
      `INSERT INTO setup_tokens (token_hash, principal_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (token_hash) DO UPDATE SET principal_id = EXCLUDED.principal_id, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
      [t.tokenHash, t.principalId, t.now, t.expiresAt],
    );
  },

  async setupTokenOwner(db: Queryable, tokenHash: string): Promise<{ principal_id: string; org_id: string; expires_at: Date } | undefined> {
    const [row] = await db.query<{ principal_id: string; org_id: string; expires_at: Date }>(
      `SELECT t.principal_id, p.org_id, t.expires_at FROM setup_tokens t JOIN principals p ON p.id = t.principal_id WHERE t.token_hash = $1 FOR UPDATE OF t`,
      [tokenHash],
    );
    return row;
  },

  async ownerHasPassword(db: Queryable, orgId: string): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM principals WHERE org_id = $1 AND role = 'owner' AND password_hash IS NOT NULL LIMIT 1`, [orgId]);
    return rows.length > 0;
  },

  async deleteSetupTokens(db: Queryable, orgId: string): Promise<void> {
    await db.query(`DELETE FROM setup_tokens t USING principals p WHERE p.id = t.principal_id AND p.org_id = $1`, [orgId]);
  },

  async insertInvitation(
    db: Queryable,
    i: { id: string; orgId: string; email: string; role: Role; tokenHash: string; createdBy: string | null; now: Date; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      `INSERT INTO invitations (id, org_id, email, role, token_hash, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [i.id, i.orgId, i.email, i.role, i.tokenHash, i.createdBy, i.now, i.expiresAt],
    );
  },

  /** The invitation of a token, locked until the transaction ends so it is accepted once. */
  async invitationForUpdate(db: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const [row] = await db.query<InvitationRow>(
      `SELECT id, org_id, email, role, created_at, expires_at, accepted_at FROM invitations WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return row;
  },

  async markAccepted(db: Queryable, id: string, now: Date): Promise<void> {
    await db.query(`UPDATE invitations SET accepted_at = $2 WHERE id = $1`, [id, now]);
  },

  /** An invitation of the organization not yet accepted, locked until the transaction ends. */
  async unacceptedInvitationForUpdate(db: Queryable, orgId: string, id: string): Promise<{ role: Role } | undefined> {
    const [row] = await db.query<{ role: Role }>(`SELECT role FROM invitations WHERE org_id = $1 AND id = $2 AND accepted_at IS NULL FOR UPDATE`, [orgId, id]);
    return row;
  },

  async deleteInvitation(db: Queryable, id: string): Promise<void> {
    await db.query(`DELETE FROM invitations WHERE id = $1`, [id]);
  },

  async pendingInvitations(db: Queryable, orgId: string, now: Date): Promise<InvitationRow[]> {
    return db.query(
      `SELECT id, org_id, email, role, created_at, expires_at, accepted_at
       FROM invitations
       WHERE org_id = $1 AND accepted_at IS NULL AND expires_at > $2
       ORDER BY created_at DESC, id`,
      [orgId, now],
    );
  },

  async members(db: Queryable, orgId: string): Promise<MemberRow[]> {
    return db.query(
      `SELECT id, email, name, role, created_at, password_hash IS NOT NULL AS has_password
       FROM principals
       WHERE org_id = $1 AND kind = 'user'
       ORDER BY email, id`,
      [orgId],
    );
  },

  /** Counts one attempt under `key` in the current fixed window and returns the window's count. */
  async countAttempt(db: Queryable, key: string, windowStart: number): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      `INSERT INTO attempt_windows (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = attempt_windows.count + 1 RETURNING count`,
      [key, windowStart],
    );
    return row!.count;
  },

  async sweepAttempts(db: Queryable, before: number): Promise<void> {
    await db.query(`DELETE FROM attempt_windows WHERE window_start < $1`, [before]);
  },

  /**
   * Counts a failure under `key` unless the wait after its earlier failures has not passed; the new
   * count, or undefined when the attempt must wait. One statement: concurrent attempts queue on
   * the row and each sees the count the one before it left.
   */
  async reserveFailure(db: Queryable, key: string, now: number, p: ThrottlePolicy): Promise<number | undefined> {
    const [row] = await db.query<{ failures: number }>(
      `INSERT INTO sign_in_failures AS f (key, failures, last_failure_at) VALUES ($1, 1, $2::bigint)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN f.last_failure_at <= $2::bigint - $6::bigint THEN 1 ELSE f.failures + 1 END,
         last_failure_at = $2::bigint
       WHERE f.last_failure_at + ${WAIT_MS} <= $2::bigint
       RETURNING failures`,
      [key, now, p.free, p.baseMs, p.maxMs, p.forgetAfterMs],
    );
    return row?.failures;
  },

  /** How long an attempt under `key` must still wait, in milliseconds (0 when it need not). */
  async failureWaitMs(db: Queryable, key: string, now: number, p: ThrottlePolicy): Promise<number> {
    const [row] = await db.query<{ wait: number }>(
      `SELECT GREATEST(f.last_failure_at + ${WAIT_MS} - $2::bigint, 0)::int AS wait FROM sign_in_failures f WHERE f.key = $1`,
      [key, now, p.free, p.baseMs, p.maxMs],
    );
    return row?.wait ?? 0;
  },

  async clearFailures(db: Queryable, key: string): Promise<void> {
    await db.query(`DELETE FROM sign_in_failures WHERE key = $1`, [key]);
  },

  async takeBackFailure(db: Queryable, key: string): Promise<void> {
    await db.query(`UPDATE sign_in_failures SET failures = failures - 1 WHERE key = $1 AND failures > 0`, [key]);
  },

  async sweepFailures(db: Queryable, before: number): Promise<void> {
    await db.query(`DELETE FROM sign_in_failures WHERE last_failure_at < $1::bigint`, [before]);
  },
};
