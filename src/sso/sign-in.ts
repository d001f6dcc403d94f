import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { AppError } from '../core/http/errors.js';
import type { AccountsService, ClientInfo, SignedIn } from '../core/accounts/service.js';
import { hashToken, randomToken } from '../core/accounts/secrets.js';
import { normalizeEmail, type IdentityService } from '../core/identity/service.js';
import { outranksOrEquals, type Role } from '../core/identity/roles.js';
import type { TeamsService } from '../teams/service.js';
import { CALLBACK_PATH, type SsoService } from './service.js';
import { ssoStore as store, type SsoConfigRow, type SsoEventKind } from './store.js';

/** How long a person may take at the identity provider before the sign-in must start again. */
export const FLOW_MS = 10 * 60_000;

export interface SsoSignInDeps {
  db: Db;
  sso: SsoService;
  identity: IdentityService;
  accounts: AccountsService;
  teams: TeamsService;
  clock?: Clock;
}

/** A refused sign-in: `reason` is a word for the login page and the audit log, `detail` says more in the log. */
export class SsoRefusal extends Error {
  override readonly name = 'SsoRefusal';
  constructor(
    readonly reason: string,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** The word of a failure openid-client reports: which check of the callback failed (the detail is in its cause). */
function reasonOf(e: unknown): string {
  const cause = (e as { cause?: unknown }).cause;
  const message = `${e instanceof Error ? e.message : String(e)} ${cause instanceof Error ? cause.message : ''}`;
  if (/"state"/.test(message)) return 'state_mismatch';
  if (/"nonce"/.test(message)) return 'nonce_mismatch';
  if (/signature/i.test(message)) return 'id_token_invalid';
  if ((cause as { error?: string } | undefined)?.error === 'invalid_grant') return 'code_rejected';
  return 'provider_error';
}

/** What the audit log keeps of a failure: openid-client's message and its cause's. */
function detailOf(e: unknown): string {
  const cause = (e as { cause?: unknown }).cause;
  const own = e instanceof Error ? e.message : String(e);
  if (cause instanceof Error) return `${own}: ${cause.message}`;
  const body = cause as { error?: string; error_description?: string } | undefined;
  return body?.error ? `${own}: ${body.error}${body.error_description ? ` (${body.error_description})` : ''}` : own;
}

/** The highest role the person's groups map to, or member when the mapping names none of them. */
function mappedRole(mapping: Record<string, Role>, groups: string[]): Role {
  let role: Role = 'member';
  let found = false;
  for (const g of groups) {
    const r = mapping[g];
    if (r && (!found || outranksOrEquals(r, role))) {
      role = r;
      found = true;
    }
  }
  return found ? role : 'member';
}

function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * Sign-in by OpenID Connect: the authorization code flow with PKCE, state and nonce, then the
 * person found or created by email, their role and teams set from their groups, and a session.
 */
export class SsoSignIn {
  private readonly db: Db;
  private readonly sso: SsoService;
  private readonly identity: IdentityService;
  private readonly accounts: AccountsService;
  private readonly teams: TeamsService;
  private readonly clock: Clock;

  constructor({ db, sso, identity, accounts, teams, clock = systemClock }: SsoSignInDeps) {
    this.db = db;
    this.sso = sso;
    this.identity = identity;
    this.accounts = accounts;
    this.teams = teams;
    this.clock = clock;
  }

  /** The provider's authorization URL for this email, and the token the browser keeps (a cookie) until the callback. */
  async start(email: string, publicUrl: string): Promise<{ url: string; flowToken: string } | SsoRefusal> {
    const normalized = normalizeEmail(email);
    const config = await store.configByDomain(this.db, normalized.slice(normalized.lastIndexOf('@') + 1));
    if (!config) return new SsoRefusal('sso_not_configured', `no organization signs in with the domain of ${normalized}`);
    let provider: oidc.Configuration;
    try {
      provider = await this.sso.provider(config);
    } catch (e) {
      const refusal = new SsoRefusal('provider_unreachable', e instanceof Error ? e.message : String(e));
      await this.record(config.org_id, 'sign_in_failed', { email: normalized, reason: refusal.message });
      return refusal;
    }
    const flowToken = randomToken();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = this.clock.now();
    await store.insertFlow(this.db, {
      tokenHash: hashToken(flowToken),
      orgId: config.org_id,
      state,
      nonce,
      codeVerifier,
      now,
      expiresAt: new Date(now.getTime() + FLOW_MS),
    });
    // The groups scope is asked for only where the provider offers it: some refuse unknown scopes.
    const scopes = provider.serverMetadata().scopes_supported?.includes('groups') ? 'openid email profile groups' : 'openid email profile';
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: `${publicUrl}${CALLBACK_PATH}`,
      scope: scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      login_hint: normalized,
    });
    return { url: url.href, flowToken };
  }

  /** Finishes a sign-in at the callback: a session, or the refusal (recorded in the organization's events). */
  async callback(flowToken: string | undefined, query: Record<string, string>, publicUrl: string, client: ClientInfo): Promise<SignedIn | SsoRefusal> {
    const flow = flowToken === undefined ? undefined : await store.takeFlow(this.db, hashToken(flowToken));
    if (!flow) return new SsoRefusal('no_sign_in_under_way', 'the callback came without a sign-in this browser started (or it was used already)');
    const fail = async (reason: string, detail: string, email?: string) => {
      const refusal = new SsoRefusal(reason, detail);
      await this.record(flow.org_id, 'sign_in_failed', { email, reason: refusal.message });
      return refusal;
    };
    if (flow.expires_at <= this.clock.now()) return fail('sign_in_expired', `the sign-in was started more than ${FLOW_MS / 60_000} minutes ago`);
    const config = await store.config(this.db, flow.org_id);
    if (!config) return fail('sso_not_configured', 'the organization no longer has SSO');
    if (query.error)
      return fail('provider_error', `${printable(query.error, 100)}${query.error_description ? `: ${printable(query.error_description, 300)}` : ''}`);

    let claims: Record<string, unknown>;
    try {
      const provider = await this.sso.provider(config);
      const current = new URL(`${publicUrl}${CALLBACK_PATH}`);
      for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
      const tokens = await oidc.authorizationCodeGrant(provider, current, {
        pkceCodeVerifier: flow.code_verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    } catch (e) {
      return fail(reasonOf(e), detailOf(e));
    }

    if (typeof claims.email !== 'string') return fail('no_email', 'the ID token has no email claim (ask for the email scope)');
    const email = normalizeEmail(claims.email);
    if (!emailVerified(claims.email_verified, config.trust_unverified_emails))
      return fail('email_not_verified', `the provider has not verified ${email}`, email);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    // A claimed domain admits no one until the operator verifies it: the claim alone proves nothing.
    if (!config.verified_domains.includes(domain))
      return fail(
        'domain_not_allowed',
        config.allowed_domains.includes(domain) ? `${domain} is claimed but not yet verified` : `${domain} is not an allowed domain of the organization`,
        email,
      );
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 200) : undefined;
    const principalId = await this.admit(config, email, name, groupsOf(claims, config.groups_claim));
    if (principalId instanceof SsoRefusal) return fail(principalId.reason, principalId.detail, email);
    const signedIn = await this.accounts.startSsoSession(principalId, client);
    await this.record(config.org_id, 'sign_in', { email, principalId });
    return signedIn;
  }

  /** The person of the email, created at first sign-in, with the role and teams their groups map to. */
  private async admit(config: SsoConfigRow, email: string, name: string | undefined, groups: string[]): Promise<string | SsoRefusal> {
    const orgId = config.org_id;
    const role = mappedRole(config.role_mapping, groups);
    const user = await this.identity.findPrincipal(orgId, { email });
    if (user && user.kind !== 'user') return new SsoRefusal('not_a_user', `${email} is not a user`);
    let id: string;
    if (!user) {
      const created = await this.identity.addUser({ orgId, email, role, name }).catch(async (e: unknown) => {
        // A first sign-in of the same person in another tab created them a moment ago.
        if (!(e instanceof AppError && e.code === 'email_taken')) throw e;
        return undefined;
      });
      if (!created) return this.admit(config, email, name, groups);
      id = created.id;
      await this.record(orgId, 'user_created', { email, principalId: id, detail: { role, groups } });
    } else {
      id = user.id;
      // Owners are made and unmade by hand: the mapping never demotes one (nor makes one).
      if (Object.keys(config.role_mapping).length > 0 && user.role !== 'owner' && user.role !== role) {
        await this.identity.setUserRole(orgId, email, role);
        await this.record(orgId, 'role_changed', { email, principalId: id, detail: { from: user.role, to: role, groups } });
      }
    }
    const managed = new Set(Object.values(config.team_mapping));
    if (managed.size > 0) {
      const wanted = new Set(groups.flatMap((g) => (config.team_mapping[g] ? [config.team_mapping[g]] : [])));
      const changed = await this.db.transaction(() => this.teams.syncMapped(orgId, id, wanted, managed));
      if (changed.joined.length + changed.left.length > 0)
        await this.record(orgId, 'teams_changed', { email, principalId: id, detail: { ...changed, groups } });
    }
    return id;
  }

  private async record(orgId: string, kind: SsoEventKind, e: { email?: string; principalId?: string; reason?: string; detail?: object }): Promise<void> {
    await store.insertEvent(this.db, { id: randomUUID(), orgId, at: this.clock.now(), kind, ...e });
  }
}

/**
 * Whether an ID token's email may name a person here: an email is linked to (or creates) a user,
 * owners included, so it must be one the provider says it verified. Some providers send the claim
 * as a string. A token without the claim passes only where the organization trusts the provider.
 */
/**
 * What anyone who opens the callback URL may write into the sign-in events (`error`,
 * `error_description`), cut short and without control or formatting characters.
 */
function printable(text: string, max: number): string {
  const clean = text.replace(/[\p{Cc}\p{Cf}]/gu, ' ');
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function emailVerified(claim: unknown, trustUnverified: boolean): boolean {
  if (claim === true || claim === 'true') return true;
  return claim === undefined && trustUnverified;
}
