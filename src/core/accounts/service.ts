import { systemClock, type Clock } from '../clock.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db.js';
import { errors } from '../http/errors.js';
import { isManagerRole, outranksOrEquals, type Principal, type Role } from '../identity/roles.js';
import { toPrincipal } from '../identity/principal.js';
import { normalizeEmail, type IdentityService } from '../identity/service.js';
import type { PrincipalRow } from '../identity/store.js';
import { csrfTokenOf, hashPassword, hashToken, randomToken, verifyPassword } from './secrets.js';
import { SIGN_IN_THROTTLE, SignInThrottle } from './sign-in-throttle.js';
import { accountsStore as store, type InvitationRow } from './store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SESSION_ABSOLUTE_MS = 14 * DAY;
export const SESSION_IDLE_MS = 12 * HOUR;
export const INVITATION_MS = 7 * DAY;
/** How long a setup token printed by `orgctl serve` works (each start prints a new one). */
export const SETUP_TOKEN_MS = DAY;
/** last_seen_at moves at most once a minute: idle expiry needs no finer grain than that. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Attempts per 15-minute window of setup, invitation acceptance (per address) and password
 * changes (per account). Sign-in has its own throttle (sign-in-throttle.ts).
 */
const ATTEMPT_WINDOW_MS = 15 * 60_000;
export const ATTEMPTS_PER_ACCOUNT = 10;
export const ATTEMPTS_PER_ADDRESS = 50;

export interface SignedIn {
  /** The session cookie's value: shown to nobody but the browser that signs in. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
  /** Who the new session authenticates as, as its cookie will on the next request. */
  principal: Principal;
}

export interface SessionAuth {
  principal: Principal;
  csrfToken: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
  /** The session cookie the browser already had: signing in replaces it (rotation). */
  previousToken?: string;
}

export interface AccountsDeps {
  db: Db;
  /** Makes the users of invitations and finds the principals of sessions. */
  identity: IdentityService;
  /** Expiries of sessions, invitations and setup tokens, and the throttles' windows; by default the system's. */
  clock?: Clock;
  /**
   * Whether a user whose password was right may sign in with it (single sign-on may require its
   * own sign-in); throws the refusal. By default every password works.
   */
  passwordPolicy?: (user: PrincipalRow) => Promise<void>;
}

/**
 * Web sign-in: first-run setup, passwords, cookie sessions, invitations and the members
 * settings. Sessions authenticate as the same principal an API key of the user would.
 */
export class AccountsService {
  private readonly throttle: SignInThrottle;
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly clock: Clock;
  private readonly passwordPolicy: (user: PrincipalRow) => Promise<void>;

  constructor({ db, identity, clock = systemClock, passwordPolicy = async () => undefined }: AccountsDeps) {
    this.db = db;
    this.identity = identity;
    this.clock = clock;
    this.passwordPolicy = passwordPolicy;
    this.throttle = new SignInThrottle(db, clock);
  }

  /**
   * One setup token per organization none of whose owners has a password yet (for its first
   * owner), for `orgctl serve` to print at each start. `fixed` (ORGCTL_SETUP_TOKEN) is used for
   * the first. A token printed at an earlier start may sit in a log or a terminal's scrollback,
   * so each start's token replaces the organization's earlier ones, and lasts 24 hours.
   */
  async issueSetupTokens(fixed?: string): Promise<{ email: string; orgName: string; token: string }[]> {
    const owners = await store.ownersAwaitingSetup(this.db);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SETUP_TOKEN_MS);
    const issued = [];
    for (const [i, owner] of owners.entries()) {
      const token = i === 0 && fixed ? fixed : randomToken();
      await this.db.transaction(async () => {
        await store.deleteSetupTokens(this.db, owner.org_id);
        await store.insertSetupToken(this.db, { tokenHash: hashToken(token), principalId: owner.id, now, expiresAt });
      });
      issued.push({ email: owner.email, orgName: owner.org_name, token });
    }
    return issued;
  }

  /** Sets the first owner's password once; afterwards the tokens are gone and setup is locked. */
  async setup(token: string, password: string, client: ClientInfo): Promise<SignedIn> {
    await this.limit([`setup:address:${client.ip}`, ATTEMPTS_PER_ADDRESS]);
    const passwordHash = await hashPassword(password);
    const principalId = await this.db.transaction(async () => {
      const owner = await store.setupTokenOwner(this.db, hashToken(token));
      if (!owner) throw errors.forbidden('This setup link is not valid, or setup is already done. Sign in instead.');
      if (owner.expires_at <= this.clock.now()) throw errors.forbidden('This setup link has expired (they last 24 hours). Restart orgctl serve for a new one.');
      if (await store.ownerHasPassword(this.db, owner.org_id))
        throw errors.conflict('setup_done', 'Setup is already done for this organization. Sign in instead.');
      await store.setPassword(this.db, owner.principal_id, passwordHash);
      await store.deleteSetupTokens(this.db, owner.org_id);
      return owner.principal_id;
    });
    return this.startSession(principalId, client);
  }

  async login(email: string, password: string, client: ClientInfo): Promise<SignedIn> {
    const normalized = normalizeEmail(email);
    // Every attempt counts as a failure of its address and of its account before the password is
    // checked (a guess that waited for the answer first would let any number of concurrent
    // guesses through), and a correct password takes it back. Unknown emails count alike, so a
    // 429 says nothing about which accounts exist.
    const address = `login:address:${client.ip}`;
    const account = `login:account:${normalized}`;
    await this.throttle.count(address, SIGN_IN_THROTTLE.address);
    await this.throttle.count(account, SIGN_IN_THROTTLE.account);
    // An email may have a password in more than one organization: the password picks which.
    const candidates = await store.passwordUsers(this.db, normalized);
    for (const user of candidates.slice(0, 5)) {
      if (await verifyPassword(user.password_hash, password)) {
        await Promise.all([this.throttle.reset(account), this.throttle.takeBack(address)]);
        await this.passwordPolicy(user);
        return this.startSession(user.id, client);
      }
    }
    if (candidates.length === 0) await verifyPassword(null, password);
    throw errors.signInFailed();
  }

  /** The principal of a session cookie, or null when it is unknown, expired, idle too long, or its user's role changed. */
  async authenticate(token: string): Promise<SessionAuth | null> {
    const now = this.clock.now();
    const row = await store.sessionPrincipal(this.db, hashToken(token), now, new Date(now.getTime() - SESSION_IDLE_MS));
    if (!row) return null;
    if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_INTERVAL_MS) await store.touchSession(this.db, row.session_id, now);
    const principal = toPrincipal(row, { type: 'session', sessionId: row.session_id });
    return { principal, csrfToken: csrfTokenOf(token) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await store.deleteSessionByToken(this.db, hashToken(token));
  }

  async sessions(actor: Principal) {
    const now = this.clock.now();
    const rows = await store.listSessions(this.db, actor.id, now, new Date(now.getTime() - SESSION_IDLE_MS));
    const current = actor.credential.type === 'session' ? actor.credential.sessionId : undefined;
    return rows.map((s) => ({
      id: s.id,
      createdAt: s.created_at.getTime(),
      lastSeenAt: s.last_seen_at.getTime(),
      expiresAt: Math.min(s.expires_at.getTime(), s.last_seen_at.getTime() + SESSION_IDLE_MS),
      userAgent: s.user_agent,
      current: s.id === current,
    }));
  }

  async revokeSession(actor: Principal, sessionId: string): Promise<void> {
    if (!(await store.deleteSession(this.db, actor.id, sessionId))) throw errors.notFound('Session', 'session_not_found');
  }

  /**
   * Changes the caller's own password and ends every session of theirs; a caller signed in by
   * a session gets a new one (returned), so only the browser that changed it stays signed in.
   */
  async changePassword(actor: Principal, current: string | undefined, next: string, client: ClientInfo): Promise<SignedIn | undefined> {
    if (actor.kind !== 'user') throw errors.badRequest('Service accounts have no password.');
    await this.limit([`password:account:${actor.id}`, ATTEMPTS_PER_ACCOUNT]);
    const stored = await store.passwordHash(this.db, actor.id);
    if (stored && !(await verifyPassword(stored, current ?? ''))) throw errors.forbidden('The current password is wrong.');
    const passwordHash = await hashPassword(next);
    await this.db.transaction(async () => {
      await store.setPassword(this.db, actor.id, passwordHash);
      await store.endSessions(this.db, actor.id, this.clock.now());
    });
    return actor.credential.type === 'session' ? this.startSession(actor.id, { ...client, previousToken: undefined }) : undefined;
  }

  /** A one-time invitation link's token, valid 7 days; never for a role above the inviter's. */
  async invite(
    actor: Pick<Principal, 'id' | 'role'> | null,
    orgId: string,
    input: { email: string; role: Role },
  ): Promise<{ invitation: InvitationRow; token: string }> {
    if (actor && !(isManagerRole(actor.role) && outranksOrEquals(actor.role, input.role))) {
      throw errors.forbidden(`A ${actor.role} cannot invite a ${input.role}.`);
    }
    const email = normalizeEmail(input.email);
    if (await this.identity.findPrincipal(orgId, { email })) throw errors.conflict('already_member', `${email} is already a member of this organization.`);
    const token = randomToken();
    const now = this.clock.now();
    const id = randomUUID();
    await store.insertInvitation(this.db, {
      id,
      orgId,
      email,
      role: input.role,
      tokenHash: hashToken(token),
      createdBy: actor?.id ?? null,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_MS),
    });
    return {
      invitation: { id, org_id: orgId, email, role: input.role, created_at: now, expires_at: new Date(now.getTime() + INVITATION_MS), accepted_at: null },
      token,
    };
  }

  pendingInvitations(orgId: string) {
    return store.pendingInvitations(this.db, orgId, this.clock.now());
  }

  /**
   * Revokes an invitation not yet accepted: its link answers 404 from then on. Owners and
   * managers, never for a role above their own (as they could not have made it).
   */
  async revokeInvitation(actor: Principal, id: string): Promise<void> {
    await this.db.transaction(async () => {
      const invitation = await store.unacceptedInvitationForUpdate(this.db, actor.orgId, id);
      if (!invitation) throw errors.notFound('Invitation', 'invitation_not_found');
      if (!outranksOrEquals(actor.role, invitation.role)) throw errors.forbidden(`A ${actor.role} cannot revoke an invitation of a ${invitation.role}.`);
      await store.deleteInvitation(this.db, id);
    });
  }

  /** Creates the invited user with their password; the link works once, for 7 days. */
  async acceptInvitation(token: string, password: string, name: string | undefined, client: ClientInfo): Promise<SignedIn> {
    await this.limit([`invite:address:${client.ip}`, ATTEMPTS_PER_ADDRESS]);
    const passwordHash = await hashPassword(password);
    const now = this.clock.now();
    const userId = await this.db.transaction(async () => {
      const invitation = await store.invitationForUpdate(this.db, hashToken(token));
      if (!invitation) throw errors.notFound('Invitation', 'invitation_not_found');
      if (invitation.accepted_at) throw errors.conflict('invitation_used', 'This invitation was already used. Sign in instead.');
      if (invitation.expires_at <= now) throw errors.conflict('invitation_expired', 'This invitation has expired. Ask for a new one.');
      const user = await this.identity.addUser({ orgId: invitation.org_id, email: invitation.email, role: invitation.role, name });
      await store.setPassword(this.db, user.id, passwordHash);
      await store.markAccepted(this.db, invitation.id, now);
      return user.id;
    });
    const user = await this.identity.findPrincipalById(userId);
    if (user) await this.passwordPolicy(user);
    return this.startSession(userId, client);
  }

  async members(orgId: string) {
    return (await store.members(this.db, orgId)).map((m) => ({
      id: m.id,
      email: m.email,
      name: m.name,
      role: m.role,
      createdAt: m.created_at.getTime(),
      hasPassword: m.has_password,
    }));
  }

  /** The API's role rules: owners and managers, never on or to a role above their own; an organization keeps an owner. */
  async changeRole(actor: Principal, memberId: string, role: Role) {
    const target = await this.memberFor(actor, memberId);
    if (!outranksOrEquals(actor.role, role)) throw errors.forbidden(`A ${actor.role} cannot make anyone ${role}.`);
    const changed = await this.identity.setUserRole(actor.orgId, target.email as string, role);
    // The sessions' recorded role no longer matches, so they already count for nothing; this tidies them away.
    if (changed.previous !== role) await store.endSessions(this.db, target.id, this.clock.now());
    return changed;
  }

  async removeMember(actor: Principal, memberId: string): Promise<void> {
    const target = await this.memberFor(actor, memberId);
    // Sessions and keys go with the user (foreign keys cascade).
    await this.identity.removeUser(actor.orgId, target.email as string);
  }

  private async memberFor(actor: Principal, memberId: string): Promise<PrincipalRow> {
    const target = await this.identity.findPrincipal(actor.orgId, { id: memberId });
    if (!target || target.kind !== 'user') throw errors.notFound('Member', 'user_not_found');
    if (!outranksOrEquals(actor.role, target.role)) throw errors.forbidden(`A ${actor.role} cannot change a ${target.role}.`);
    return target;
  }

  /** A session for a user single sign-on has just authenticated (the caller checked who it is). */
  startSsoSession(principalId: string, client: ClientInfo): Promise<SignedIn> {
    return this.startSession(principalId, client);
  }

  private async startSession(principalId: string, client: ClientInfo): Promise<SignedIn> {
    const now = this.clock.now();
    if (client.previousToken) await store.deleteSessionByToken(this.db, hashToken(client.previousToken));
    const row = await this.identity.findPrincipalById(principalId);
    if (!row) throw errors.unauthorized();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    const sessionId = randomUUID();
    await store.insertSession(this.db, {
      id: sessionId,
      tokenHash: hashToken(token),
      principalId,
      role: row.role,
      now,
      expiresAt,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
    });
    return { token, csrfToken: csrfTokenOf(token), expiresAt, principal: toPrincipal(row, { type: 'session', sessionId }) };
  }

  /** The current counting window of attempts: its start, and the seconds until it ends. */
  private attemptWindow(): { start: number; retryS: number } {
    const now = this.clock.now().getTime();
    const start = now - (now % ATTEMPT_WINDOW_MS);
    return { start, retryS: Math.ceil((start + ATTEMPT_WINDOW_MS - now) / 1000) };
  }

  private tooMany(retryS: number): Error {
    return errors.tooManyRequests(`Too many attempts; try again in ${Math.ceil(retryS / 60)} minutes.`, retryS);
  }

  /** Counts an attempt under each key; past a key's limit, 429 until its window ends. */
  private async limit(...keys: [string, number][]): Promise<void> {
    const window = this.attemptWindow();
    const counts = await Promise.all(keys.map(([key]) => store.countAttempt(this.db, key, window.start)));
    if (Math.random() < 0.01) await store.sweepAttempts(this.db, window.start - ATTEMPT_WINDOW_MS);
    if (counts.some((n, i) => n > keys[i]![1])) throw this.tooMany(window.retryS);
  }
}
