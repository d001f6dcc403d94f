import type { Static } from '@sinclair/typebox';
import { createHash, timingSafeEqual } from 'node:crypto';
import type * as oidc from 'openid-client';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import { contextOf, resealColumn, type SealedColumn } from '../core/secrets/reseal.js';
import { SecretBox } from '../core/secrets/secret-box.js';
import type { TeamsService } from '../teams/service.js';
import { discover, IssuerUnreachable, issuerError, type IssuerPolicy } from './oidc.js';
import type { SsoConfig, SsoConfigBody, SsoEvent } from './schemas.js';
import { randomToken } from '../core/accounts/secrets.js';
import { ssoStore as store, type SsoConfigRow, type SsoDomainRow } from './store.js';

export type SsoConfigView = Static<typeof SsoConfig>;
type SsoEventView = Static<typeof SsoEvent>;

/** A discovered provider is reused this long: its keys rotate, and an owner may have changed it. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SsoDeps {
  db: Db;
  /** Resolves the team mapping's names to teams. */
  teams: TeamsService;
  /** SSO_ALLOW_PRIVATE_ISSUER, and the resolver of the network guard (tests may pass one). */
  issuerPolicy: IssuerPolicy;
  /** When configurations change and discovered providers expire; by default the system's. */
  clock?: Clock;
  /** Seals the client secret where it is stored (SECRETS_KEY); by default none: stored as given. */
  secrets?: SecretBox;
  /** SSO_VERIFIED_DOMAINS: domain → the organization it is verified for, by the operator's word. */
  verifiedDomains?: ReadonlyMap<string, string>;
}

const CLIENT_SECRET: SealedColumn = { table: 'sso_configs', id: 'org_id', column: 'client_secret' };

/** The path of the sign-in callback: the redirect URI an owner registers at the provider. */
export const CALLBACK_PATH = '/api/v0/sso/callback';

function view(row: SsoConfigRow, domains: SsoDomainRow[], publicUrl: string): SsoConfigView {
  return {
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSet: row.client_secret !== '',
    allowedDomains: row.allowed_domains,
    domains: domains.map((d) => ({
      domain: d.domain,
      verified: d.verified_at !== null,
      verifiedAt: d.verified_at?.getTime() ?? null,
      verifiedBy: d.verified_by,
      verificationToken: d.verified_at === null ? d.verification_token : null,
    })),
    groupsClaim: row.groups_claim,
    roleMapping: row.role_mapping,
    teamMapping: row.team_mapping,
    required: row.required,
    trustUnverifiedEmails: row.trust_unverified_emails,
    redirectUri: `${publicUrl}${CALLBACK_PATH}`,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

/**
 * An organization's OpenID Connect configuration (docs/sso.md), its discovered provider and the
 * sign-in events. Owners only (the routes' access); the client secret goes in and never out.
 */
export class SsoService {
  private readonly db: Db;
  private readonly teams: TeamsService;
  readonly issuerPolicy: IssuerPolicy;
  private readonly clock: Clock;
  private readonly secrets: SecretBox;
  private readonly verifiedDomains: ReadonlyMap<string, string>;
  private readonly discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  constructor({ db, teams, issuerPolicy, clock = systemClock, secrets = new SecretBox(undefined), verifiedDomains = new Map() }: SsoDeps) {
    this.db = db;
    this.verifiedDomains = verifiedDomains;
    this.secrets = secrets;
    this.teams = teams;
    this.issuerPolicy = issuerPolicy;
    this.clock = clock;
  }

  async get(orgId: string, publicUrl: string): Promise<SsoConfigView> {
    const row = await store.config(this.db, orgId);
    if (!row) throw errors.notFound('SSO configuration', 'sso_not_configured');
    return view(row, await store.domainsOf(this.db, orgId), publicUrl);
  }

  /**
   * Writes the whole configuration. The provider is discovered first, through the network guard,
   * so an issuer the service cannot reach or may not reach is refused now rather than at sign-in.
   */
  async put(actor: Principal, body: Static<typeof SsoConfigBody>, publicUrl: string): Promise<SsoConfigView> {
    const existing = await store.config(this.db, actor.orgId);
    // As stored: sealed under SECRETS_KEY when it is set. A secret is kept for its own issuer only:
    // sent with a new issuer's token requests, it would hand the old provider's client to the new one.
    const issuerChanged = existing !== undefined && existing.issuer !== body.issuer;
    const kept = issuerChanged ? undefined : existing?.client_secret;
    const clientSecret = body.clientSecret !== undefined ? this.secrets.seal(body.clientSecret, contextOf(CLIENT_SECRET)) : kept;
    if (clientSecret === undefined)
      throw errors.invalid([
        { path: '/clientSecret', message: issuerChanged ? 'is required when the issuer changes' : 'is required when SSO is first configured' },
      ]);
    const domains = this.claims(actor.orgId, body.allowedDomains);
    const teamMapping = await this.resolveTeams(actor.orgId, body.teamMapping ?? {});
    try {
      await this.provider({ issuer: body.issuer, client_id: body.clientId, client_secret: clientSecret });
    } catch (e) {
      if (e instanceof IssuerUnreachable) throw issuerError(e);
      throw e;
    }
    await this.db.transaction(async () => {
      await store.upsert(
        this.db,
        {
          orgId: actor.orgId,
          issuer: body.issuer,
          clientId: body.clientId,
          clientSecret,
          groupsClaim: body.groupsClaim ?? 'groups',
          roleMapping: body.roleMapping ?? {},
          teamMapping,
          required: body.required ?? false,
          trustUnverifiedEmails: body.trustUnverifiedEmails ?? false,
        },
        this.clock.now(),
      );
      await store.setDomains(this.db, actor.orgId, domains, this.clock.now());
    });
    return this.get(actor.orgId, publicUrl);
  }

  /**
   * The claims a configuration makes: each domain once, lower case, with a token for the operator;
   * verified at once where the operator's allow-list gives it to this organization, refused where
   * the list gives it to another (which a first claim must not block).
   */
  private claims(orgId: string, allowedDomains: string[]) {
    const domains = [...new Set(allowedDomains.map((d) => d.toLowerCase()))];
    return domains.map((domain) => {
      const listed = this.verifiedDomains.get(domain);
      if (listed !== undefined && listed !== orgId)
        throw errors.conflict('domain_taken', `The domain ${domain} is verified for another organization: it signs in there.`, {
          field: `allowedDomains/${allowedDomains.findIndex((d) => d.toLowerCase() === domain)}`,
        });
      return { domain, token: randomToken(), ...(listed === orgId ? { verifiedBy: 'allow_list' as const } : {}) };
    });
  }

  /**
   * The instance operator verifies one organization's claim of a domain with the token its owners
   * were shown (orgctl sso verify-domain). The token names the claim: of several organizations
   * claiming the domain, it is the one whose token it is.
   */
  async verifyDomain(domain: string, token: string): Promise<DomainVerification> {
    const name = domain.trim().toLowerCase();
    const claims = await store.claimsOf(this.db, name);
    if (claims.length === 0) return { outcome: 'not_claimed', domain: name };
    const verified = claims.find((c) => c.verified_at !== null);
    const claim = claims.find((c) => c.verification_token !== null && safeEqual(c.verification_token, token));
    if (!claim) return verified ? { outcome: 'taken', domain: name, orgId: verified.org_id } : { outcome: 'wrong_token', domain: name };
    if (verified) return { outcome: verified.org_id === claim.org_id ? 'already' : 'taken', domain: name, orgId: verified.org_id };
    const listed = this.verifiedDomains.get(name);
    if (listed !== undefined && listed !== claim.org_id) return { outcome: 'taken', domain: name, orgId: listed };
    if (!(await store.verify(this.db, name, claim.org_id, 'operator', this.clock.now()))) {
      const [now] = (await store.claimsOf(this.db, name)).filter((c) => c.verified_at !== null);
      return { outcome: now?.org_id === claim.org_id ? 'already' : 'taken', domain: name, orgId: now?.org_id ?? claim.org_id };
    }
    return { outcome: 'verified', domain: name, orgId: claim.org_id };
  }

  /**
   * Verifies the pending claims the operator's allow-list names (at start: the list may have
   * grown since a domain was claimed). A domain verified for another organization stays there:
   * answered, for the log, as a conflict the operator resolves.
   */
  async applyVerifiedDomains(): Promise<{ verified: string[]; conflicts: string[] }> {
    const verified: string[] = [];
    const conflicts: string[] = [];
    for (const [domain, orgId] of this.verifiedDomains) {
      if (await store.verify(this.db, domain, orgId, 'allow_list', this.clock.now())) verified.push(domain);
      else if ((await store.claimsOf(this.db, domain)).some((c) => c.verified_at !== null && c.org_id !== orgId)) conflicts.push(domain);
    }
    return { verified, conflicts };
  }

  async delete(actor: Principal): Promise<void> {
    if (!(await store.delete(this.db, actor.orgId))) throw errors.notFound('SSO configuration', 'sso_not_configured');
  }

  async events(orgId: string, limit: number, cursor?: string): Promise<{ events: SsoEventView[]; nextCursor: string | null }> {
    const before = cursor === undefined ? undefined : parseCursor(cursor);
    const rows = await store.events(this.db, orgId, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      events: page.map((r) => ({
        id: r.id,
        at: r.at.getTime(),
        kind: r.kind,
        email: r.email,
        principalId: r.principal_id,
        reason: r.reason,
        detail: r.detail,
      })),
      nextCursor: rows.length > limit && last ? last.seq : null,
    };
  }

  /** Stored client secrets in the form SECRETS_KEY asks for now (at start). */
  resealSecrets(): Promise<number> {
    return resealColumn(this.db, this.secrets, CLIENT_SECRET);
  }

  /** The discovered provider of a configuration as stored, reused for DISCOVERY_TTL_MS (keyed by everything that picks it). */
  provider(row: Pick<SsoConfigRow, 'issuer' | 'client_id' | 'client_secret'>): Promise<oidc.Configuration> {
    const key = createHash('sha256').update(`${row.issuer}\0${row.client_id}\0${row.client_secret}`).digest('hex');
    const now = this.clock.now().getTime();
    const hit = this.discovered.get(key);
    if (hit && now - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const config = Promise.resolve().then(() =>
      discover(row.issuer, row.client_id, this.secrets.open(row.client_secret, contextOf(CLIENT_SECRET)), this.issuerPolicy),
    );
    this.discovered.set(key, { at: now, config });
    // A failure is not kept: the next sign-in tries again.
    config.catch(() => this.discovered.delete(key));
    return config;
  }

  /** Group → team id, from ids or names of the organization's teams; an unknown one is a 400 at its place. */
  private async resolveTeams(orgId: string, mapping: Record<string, string>): Promise<Record<string, string>> {
    const teams = await this.teams.list(orgId);
    const resolved: Record<string, string> = {};
    const problems = [];
    for (const [group, team] of Object.entries(mapping)) {
      const found = teams.find((t) => (UUID.test(team) ? t.id === team.toLowerCase() : t.name.toLowerCase() === team.toLowerCase()));
      if (found) resolved[group] = found.id;
      else problems.push({ path: `/teamMapping/${group.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: `names no team of the organization (${team})` });
    }
    if (problems.length) throw errors.invalid(problems);
    return resolved;
  }
}

/** What orgctl sso verify-domain found; the command says it in words. */
export interface DomainVerification {
  outcome: 'verified' | 'already' | 'not_claimed' | 'wrong_token' | 'taken';
  domain: string;
  /** verified, already: the organization it is verified for now; taken: the one that has it. */
  orgId?: string;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseCursor(cursor: string): number {
  if (!/^[1-9]\d{0,15}$/.test(cursor)) throw errors.invalid([{ path: '/cursor', message: 'is not a cursor this list returned' }], 'querystring');
  return Number(cursor);
}
