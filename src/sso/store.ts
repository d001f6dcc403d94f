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
  /** Every domain the organization claims, verified or not. */
  allowed_domains: string[];
  /** The claimed domains that are verified: only these route sign-ins and admit people. */
  verified_domains: string[];
}

export type DomainVerifier = 'operator' | 'allow_list' | 'upgrade';

export interface SsoDomainRow {
  domain: string;
  org_id: string;
  verification_token: string | null;
  verified_at: Date | null;
  verified_by: DomainVerifier | null;
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
  COALESCE((SELECT array_agg(d.domain ORDER BY d.domain) FROM sso_domains d WHERE d.org_id = c.org_id), '{}') AS allowed_domains,
  COALESCE((SELECT array_agg(d.domain ORDER BY d.domain) FROM sso_domains d WHERE d.org_id = c.org_id AND d.verified_at IS NOT NULL), '{}') AS verified_domains`;
const domainColumns = 'domain, org_id, verification_token, verified_at, verified_by';

/** SQL of single sign-on: configurations, their domains, flows under way and the sign-in events. */
export const ssoStore = {
  async config(db: Queryable, orgId: string): Promise<SsoConfigRow | undefined> {
    const [row] = await db.query<SsoConfigRow>(`SELECT ${configColumns} FROM sso_configs c WHERE c.org_id = $1`, [orgId]);
    return row;
  },

  /** The configuration of the organization the domain is verified for (a claim alone routes nothing). */
  async configByDomain(db: Queryable, domain: string): Promise<SsoConfigRow | undefined> {
    const [row] = await db.query<SsoConfigRow>(
      `SELECT ${configColumns} FROM sso_configs c JOIN sso_domains d ON d.org_id = c.org_id WHERE d.domain = $1 AND d.verified_at IS NOT NULL`,
      [domain],
    );
    return row;
  },

  async domainsOf(db: Queryable, orgId: string): Promise<SsoDomainRow[]> {
    return db.query<SsoDomainRow>(`SELECT ${domainColumns} FROM sso_domains WHERE org_id = $1 ORDER BY domain`, [orgId]);
  },

  /** Every organization's claim of the domain. */
  async claimsOf(db: Queryable, domain: string): Promise<SsoDomainRow[]> {
    return db.query<SsoDomainRow>(`SELECT ${domainColumns} FROM sso_domains WHERE domain = $1 ORDER BY org_id`, [domain]);
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

  /**
   * Makes the organization's claims exactly `domains` (inside the caller's transaction): a kept
   * domain keeps its verification and token, a new one is claimed with its token, verified at
   * once when `verifiedBy` names it (the operator's allow-list). A domain verified for another
   * organization is refused.
   */
  async setDomains(db: Queryable, orgId: string, domains: { domain: string; token: string; verifiedBy?: DomainVerifier }[], now: Date): Promise<void> {
    await db.query(`DELETE FROM sso_domains WHERE org_id = $1 AND NOT (domain = ANY($2::text[]))`, [orgId, domains.map((d) => d.domain)]);
    for (const [i, d] of domains.entries()) {
      const taken = () =>
        errors.conflict('domain_taken', `The domain ${d.domain} is verified for another organization: it signs in there.`, { field: `allowedDomains/${i}` });
      const [other] = await db.query(`SELECT 1 FROM sso_domains WHERE domain = $1 AND org_id <> $2 AND verified_at IS NOT NULL`, [d.domain, orgId]);
      if (other) throw taken();
      const verifiedAt = d.verifiedBy ? now : null;
      try {
        await db.query(
          `INSERT INTO sso_domains (domain, org_id, verification_token, verified_at, verified_by) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (domain, org_id) DO UPDATE SET verified_at = COALESCE(sso_domains.verified_at, EXCLUDED.verified_at),
             verified_by = COALESCE(sso_domains.verified_by, EXCLUDED.verified_by)`,
          [d.domain, orgId, d.token, verifiedAt, d.verifiedBy ?? null],
        );
      } catch (e) {
        // Verified for another organization between the check and the write.
        if (isUniqueViolation(e)) throw taken();
        throw e;
      }
    }
  },

  /**
   * Marks one organization's claim verified, unless the domain is verified for another one
   * (then nothing changes). Answers whether it changed.
   */
  async verify(db: Queryable, domain: string, orgId: string, by: DomainVerifier, now: Date): Promise<boolean> {
    try {
      const rows = await db.query(
        `UPDATE sso_domains SET verified_at = $3, verified_by = $4
         WHERE domain = $1 AND org_id = $2 AND verified_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM sso_domains o WHERE o.domain = $1 AND o.verified_at IS NOT NULL)
         RETURNING domain`,
        [domain, orgId, now, by],
      );
      return rows.length > 0;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
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
