import { isUniqueViolation, type Queryable } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Role } from '../core/identity/roles.js';

export interface SsoConfigRow {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  groups_claim: string;
  role_mapping: Record<string, Exclude<Role, 'owner'>>;
  team_mapping: Record<string, string>;
  required: boolean;
  trust_unverified_emails: boolean;
  created_at: Date;
  updated_at: Date;
  allowed_domains: string[];
}

export interface SsoFlowRow {
  org_id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  expires_at: Date;
}

export type SsoEventKind = 'sign_in' | 'sign_in_failed' | 'user_created' | 'role_changed' | 'teams_changed' | 'break_glass';

export interface SsoEventRow {
  id: string;
  seq: string;
  at: Date;
  kind: SsoEventKind;
  email: string | null;
  principal_id: string | null;
  reason: string | null;
  detail: Record<string, unknown>;
}

const configColumns = `c.org_id, c.issuer, c.client_id, c.client_secret, c.groups_claim, c.role_mapping, c.team_mapping, c.required, c.trust_unverified_emails, c.created_at, c.updated_at,
  COALESCE((SELECT array_agg(d.domain ORDER BY d.domain) FROM sso_domains d WHERE d.org_id = c.org_id), '{}') AS allowed_domains`;

/** SQL of single sign-on: configurations, their domains, flows under way and the sign-in events. */
export const ssoStore = {
  async config(db: Queryable, orgId: string): Promise<SsoConfigRow | undefined> {
    const [row] = await db.query<SsoConfigRow>(`SELECT ${configColumns} FROM sso_configs c WHERE c.org_id = $1`, [orgId]);
    return row;
  },

  async configByDomain(db: Queryable, domain: string): Promise<SsoConfigRow | undefined> {
    const [row] = await db.query<SsoConfigRow>(`SELECT ${configColumns} FROM sso_configs c JOIN sso_domains d ON d.org_id = c.org_id WHERE d.domain = $1`, [
      domain,
    ]);
    return row;
  },

  async required(db: Queryable, orgId: string): Promise<boolean> {
    const [row] = await db.query<{ required: boolean }>(`SELECT required FROM sso_configs WHERE org_id = $1`, [orgId]);
    return row?.required ?? false;
  },

  /** Writes the whole configuration (inside the caller's transaction with setDomains). */
  async upsert(
    db: Queryable,
    c: {
      orgId: string;
      issuer: string;
      clientId: string;
      clientSecret: string;
      groupsClaim: string;
      roleMapping: Record<string, Exclude<Role, 'owner'>>;
      teamMapping: Record<string, string>;
      required: boolean;
      trustUnverifiedEmails: boolean;
    },
    now: Date,
  ): Promise<void> {
    await db.query(
      `INSERT INTO sso_configs (org_id, issuer, client_id, client_secret, groups_claim, role_mapping, team_mapping, required, trust_unverified_emails, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8, $9, $10, $10)
       ON CONFLICT (org_id) DO UPDATE SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id, client_secret = EXCLUDED.client_secret,
         groups_claim = EXCLUDED.groups_claim, role_mapping = EXCLUDED.role_mapping, team_mapping = EXCLUDED.team_mapping,
         required = EXCLUDED.required, trust_unverified_emails = EXCLUDED.trust_unverified_emails, updated_at = EXCLUDED.updated_at`,
      [
        c.orgId,
        c.issuer,
        c.clientId,
        c.clientSecret,
        c.groupsClaim,
        JSON.stringify(c.roleMapping),
        JSON.stringify(c.teamMapping),
        c.required,
        c.trustUnverifiedEmails,
        now,
      ],
    );
  },

  async setDomains(db: Queryable, orgId: string, domains: string[]): Promise<void> {
    await db.query(`DELETE FROM sso_domains WHERE org_id = $1`, [orgId]);
    for (const [i, domain] of domains.entries()) {
      try {
        await db.query(`INSERT INTO sso_domains (domain, org_id) VALUES ($1, $2)`, [domain, orgId]);
      } catch (e) {
        if (isUniqueViolation(e))
          throw errors.conflict('domain_taken', `The domain ${domain} already signs in to another organization.`, { field: `allowedDomains/${i}` });
        throw e;
      }
    }
  },

  async delete(db: Queryable, orgId: string): Promise<boolean> {
    return (await db.query(`DELETE FROM sso_configs WHERE org_id = $1 RETURNING org_id`, [orgId])).length > 0;
  },

  async insertFlow(db: Queryable, f: { tokenHash: string; orgId: string; state: string; nonce: string; codeVerifier: string; now: Date; expiresAt: Date }) {
    await db.query(`INSERT INTO sso_flows (token_hash, org_id, state, nonce, code_verifier, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      f.tokenHash,
      f.orgId,
      f.state,
      f.nonce,
      f.codeVerifier,
      f.now,
      f.expiresAt,
    ]);
    // Flows abandoned at the provider are swept as new ones start.
    await db.query(`DELETE FROM sso_flows WHERE expires_at <= $1`, [f.now]);
  },

  /** Takes the flow of a token: it is gone afterwards, so a callback is honoured once. */
  async takeFlow(db: Queryable, tokenHash: string): Promise<SsoFlowRow | undefined> {
    const [row] = await db.query<SsoFlowRow>(`DELETE FROM sso_flows WHERE token_hash = $1 RETURNING org_id, state, nonce, code_verifier, expires_at`, [
      tokenHash,
    ]);
    return row;
  },

  async insertEvent(
    db: Queryable,
    e: { id: string; orgId: string; at: Date; kind: SsoEventKind; email?: string | null; principalId?: string | null; reason?: string | null; detail?: object },
  ): Promise<void> {
    await db.query(`INSERT INTO sso_events (id, org_id, at, kind, email, principal_id, reason, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb)`, [
      e.id,
      e.orgId,
      e.at,
      e.kind,
      e.email ?? null,
      e.principalId ?? null,
      e.reason ?? null,
      JSON.stringify(e.detail ?? {}),
    ]);
  },

  /** Newest first (in the order they were recorded), before the event numbered `beforeSeq`. */
  async events(db: Queryable, orgId: string, limit: number, beforeSeq?: number): Promise<SsoEventRow[]> {
    return db.query(
      `SELECT id, seq::text AS seq, at, kind, email, principal_id, reason, detail FROM sso_events
       WHERE org_id = $1 AND ($3::bigint IS NULL OR seq < $3::bigint)
       ORDER BY sso_events.seq DESC LIMIT $2`,
      [orgId, limit, beforeSeq ?? null],
    );
  },
};
