import { noOutbox, type Outbox } from '../outbox.js';
import { systemClock, type Clock } from '../clock.js';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type Db, type Queryable } from '../db/db.js';
import { errors } from '../http/errors.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format.js';
import { isEmail } from './email.js';
import { isUuid } from '../uuid.js';
import { isManagerRole, outranksOrEquals, type Principal, type Role } from './roles.js';
import { FULL, normalizeScopes, scopesProblem, type Scope } from './scopes.js';
import { identityStore as store, type ApiKeyRow, type PrincipalRow } from './store.js';

export interface CreatedKey {
  key: ApiKeyRow;
  secret: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The credential cache of the process (the Authenticator), told of every change that must apply to the next request. */
export interface CredentialCache {
  forgetKey(keyId: string): void;
  forgetPrincipal(principalId: string): void;
}

export const noCache: CredentialCache = { forgetKey: () => undefined, forgetPrincipal: () => undefined };

/**
 * Issues a key to a holder the caller has already chosen and checked (the actor's createApiKey,
 * the operator's commands); the secret exists only in what it returns.
 */
export async function issueKey(
  db: Queryable,
  k: { orgId: string; principalId: string; name: string; expiresAt: Date | null; createdBy: string | null; scopes?: readonly Scope[] },
): Promise<CreatedKey> {
  const problem = k.scopes && scopesProblem(k.scopes);
  if (problem) throw errors.invalid([{ path: '/scopes', message: problem }]);
  const secret = generateApiKey();
  const id = randomUUID();
  await store.insertApiKey(db, { ...k, scopes: normalizeScopes(k.scopes ?? FULL), id, hash: hashApiKey(secret), prefix: displayPrefix(secret) });
  const key = await store.findApiKey(db, k.orgId, id);
  if (!key) throw new Error('key vanished after insert');
  return { key, secret };
}

export interface IdentityDeps {
  db: Db;
  /** Key expiries and `lastUsedAt`; by default the system's. */
  clock?: Clock;
  /** Told of revocations, role changes and removals, so cached credentials drop them at once; by default none. */
  cache?: CredentialCache;
  /** Where a user added or removed is told of (webhooks member.added, member.removed); by default nowhere. */
  outbox?: Outbox;
}

/**
 * Identity as the API's callers see it, with the rules of docs/identity-and-access.md: each
 * public method either acts for a Principal and checks what its role allows, or is a lookup or
 * change other services make after their own checks (accounts, limits, telemetry, OTLP,
 * computers). The operator's commands, which have no principal, use OperatorIdentity.
 */
export class IdentityService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly cache: CredentialCache;

  private readonly outbox: Outbox;

  constructor({ db, clock = systemClock, cache = noCache, outbox = noOutbox }: IdentityDeps) {
    this.db = db;
    this.clock = clock;
    this.cache = cache;
    this.outbox = outbox;
  }

  // --- The actor's own requests -----------------------------------------------------------

  /**
   * A user's change of their own name or email. The email is the sign-in name, so the next
   * sign-in uses the new one; sessions, keys and JWTs are bound to the principal's id and keep
   * working, and the cached principal is dropped so the next request reads the new email.
   */
  async updateOwnProfile(actor: Principal, input: { name?: string; email?: string }): Promise<{ name: string; email: string | null }> {
    if (actor.kind !== 'user') throw errors.forbidden("A service account's name is managed by owners and managers.");
    const email = input.email === undefined ? undefined : normalizeEmail(input.email);
    if (email !== undefined && !isEmail(email)) throw errors.invalid([{ path: '/email', message: 'must be an email address' }]);
    const name = input.name?.trim();
    let changed: { name: string; email: string | null } | undefined;
    try {
      changed = await store.updateProfile(this.db, actor.id, { name, email });
    } catch (e) {
      if (isUniqueViolation(e)) throw errors.conflict('email_taken', `Another user of this organization already has the email ${email}.`);
      throw e;
    }
    if (!changed) throw errors.unauthorized();
    this.cache.forgetPrincipal(actor.id);
    return changed;
  }

  /**
   * Issues a key. Without a target it is the actor's own; owners and managers may name another
   * principal of their organization, but never one whose role is above their own.
   */
  async createApiKey(
    actor: Principal,
    input: { target?: { id: string } | { email: string }; name?: string; expiresAt?: Date | null; scopes?: readonly Scope[] },
  ): Promise<CreatedKey> {
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock.now().getTime())
      throw errors.invalid([{ path: '/expiresAt', message: 'must be in the future' }]);
    let principalId = actor.id;
    if (input.target !== undefined) {
      const target = await this.findPrincipal(actor.orgId, input.target);
      if (!target) throw errors.notFound('Principal', 'user_not_found');
      if (target.id !== actor.id && !(isManagerRole(actor.role) && outranksOrEquals(actor.role, target.role))) {
        throw errors.forbidden('Only owners and managers may create keys for another principal, and never for a higher role.');
      }
      principalId = target.id;
    }
    return issueKey(this.db, {
      orgId: actor.orgId,
      principalId,
      name: input.name ?? 'api key',
      expiresAt: input.expiresAt ?? null,
      createdBy: actor.id,
      ...(input.scopes ? { scopes: input.scopes } : {}),
    });
  }

  /** Owners and managers see every key of the organization; others see their own. */
  listApiKeys(actor: Principal, principalId?: string): Promise<ApiKeyRow[]> {
    if (!isManagerRole(actor.role)) return store.listApiKeys(this.db, actor.orgId, actor.id);
    return store.listApiKeys(this.db, actor.orgId, principalId);
  }

  async revokeApiKey(actor: Principal, keyId: string): Promise<void> {
    const key = await store.findApiKey(this.db, actor.orgId, keyId);
    const mayRevoke = key !== undefined && (key.principal_id === actor.id || (isManagerRole(actor.role) && outranksOrEquals(actor.role, key.principal_role)));
    // A key the caller may not touch is reported as absent, so key ids of others are not confirmed.
    if (!key || !mayRevoke) throw errors.notFound('API key', 'api_key_not_found');
    await store.revokeApiKey(this.db, actor.orgId, keyId, this.clock.now());
    this.cache.forgetKey(keyId);
  }

  /** The service accounts of the actor's organization (owners and managers: the route checks the role). */
  async serviceAccounts(actor: Principal) {
    return (await store.listServiceAccounts(this.db, actor.orgId, this.clock.now())).map((a) => ({
      id: a.id,
      name: a.name,
      role: a.role,
      createdAt: a.created_at.getTime(),
      activeKeys: a.active_keys,
    }));
  }

  /** An owner's or manager's new service account, never of a role above their own. */
  async createServiceAccount(actor: Principal, input: { name: string; role: 'manager' | 'member' }) {
    if (!outranksOrEquals(actor.role, input.role)) throw errors.forbidden(`A ${actor.role} cannot create a ${input.role} service account.`);
    const id = randomUUID();
    await store.insertPrincipal(this.db, { id, orgId: actor.orgId, kind: 'service_account', email: null, name: input.name, role: input.role });
    const created = (await this.serviceAccounts(actor)).find((a) => a.id === id);
    if (!created) throw new Error('service account vanished after insert');
    return created;
  }

  /** Removes a service account with its keys (they end at once) and what it owns, as a member's removal does. */
  async removeServiceAccount(actor: Principal, id: string): Promise<void> {
    const target = await store.findPrincipal(this.db, actor.orgId, { id });
    if (!target || target.kind !== 'service_account') throw errors.notFound('Service account', 'service_account_not_found');
    if (!outranksOrEquals(actor.role, target.role)) throw errors.forbidden(`A ${actor.role} cannot remove a ${target.role} service account.`);
    await store.deletePrincipal(this.db, id);
    this.cache.forgetPrincipal(id);
  }

  /** Links a client account id to a user of the actor's organization (owner or manager; the route checks the role). */
  async linkAccount(actor: Principal, email: string, accountId: string): Promise<{ accountId: string; userId: string; email: string }> {
    const user = await store.findPrincipal(this.db, actor.orgId, { email: normalizeEmail(email) });
    if (!user || user.kind !== 'user') throw errors.notFound(`User ${email}`, 'user_not_found');
    await store.linkAccount(this.db, actor.orgId, accountId, user.id);
    return { accountId, userId: user.id, email: user.email as string };
  }

  async unlinkAccount(actor: Principal, accountId: string): Promise<void> {
    if (!(await store.unlinkAccount(this.db, actor.orgId, accountId))) throw errors.notFound(`Account link ${accountId}`, 'account_link_not_found');
  }

  async accountLinks(actor: Principal) {
    return (await store.listAccountLinks(this.db, actor.orgId)).map((l) => ({
      accountId: l.account_id,
      userId: l.principal_id,
      email: l.email,
      createdAt: l.created_at.getTime(),
    }));
  }

  // --- For other services, which check the actor first, and for OperatorIdentity -----------

  /** Adds a user; inside a caller's transaction it joins it (an accepted invitation sets the password in the same one). */
  async addUser(input: { orgId: string; email: string; role: Role; name?: string; id?: string }): Promise<{ id: string; email: string; role: Role }> {
    // A given id brings a removed user back under the id their history is kept by (SCIM's reactivation).
    const id = input.id ?? randomUUID();
    const normalized = normalizeEmail(input.email);
    if (!isEmail(normalized)) throw errors.badRequest(`"${input.email}" is not an email address.`);
    try {
      await this.db.transaction(async () => {
        await store.insertPrincipal(this.db, { id, orgId: input.orgId, kind: 'user', email: normalized, name: input.name ?? normalized, role: input.role });
        await this.outbox.emit(input.orgId, 'member.added', { userId: id, email: normalized, role: input.role });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw errors.conflict('email_taken', `A user with email ${normalized} already exists in this organization.`);
      throw e;
    }
    return { id, email: normalized, role: input.role };
  }

  /**
   * A change of a user's role, checked by the caller (accounts' members settings; the operator is
   * beyond roles). An organization always keeps an owner: the last one cannot be demoted (409).
   * Keys and tokens act with the new role from the next request on.
   */
  async setUserRole(orgId: string, email: string, role: Role): Promise<{ id: string; email: string; role: Role; previous: Role }> {
    const changed = await this.db.transaction(async () => {
      const user = await this.userForChange(orgId, email);
      if (user.role === 'owner' && role !== 'owner') await this.keepAnOwner(orgId, `demote ${user.email}`);
      await store.setRole(this.db, user.id, role);
      return { id: user.id, email: user.email as string, role, previous: user.role };
    });
    // After the commit: evicted earlier, a request in between could cache the old role again.
    this.cache.forgetPrincipal(changed.id);
    return changed;
  }

  /** A removal of a user with their keys, which stop working at once, checked by the caller as above; the last owner stays (409). */
  async removeUser(orgId: string, email: string): Promise<{ id: string; email: string }> {
    const removed = await this.db.transaction(async () => {
      const user = await this.userForChange(orgId, email);
      if (user.role === 'owner') await this.keepAnOwner(orgId, `remove ${user.email}`);
      await store.deletePrincipal(this.db, user.id);
      await this.outbox.emit(orgId, 'member.removed', { userId: user.id, email: user.email as string, role: user.role });
      return { id: user.id, email: user.email as string };
    });
    this.cache.forgetPrincipal(removed.id);
    return removed;
  }

  /**
   * A change of a user's name or email made by another service after its own checks (SCIM
   * provisioning); as for one's own change, the email is the next sign-in's and the cached
   * principal is dropped. Undefined when the organization has no such user.
   */
  async updateUser(orgId: string, id: string, input: { name?: string; email?: string }): Promise<{ name: string; email: string | null } | undefined> {
    const user = await store.findPrincipal(this.db, orgId, { id });
    if (!user || user.kind !== 'user') return undefined;
    const email = input.email === undefined ? undefined : normalizeEmail(input.email);
    if (email !== undefined && !isEmail(email)) throw errors.invalid([{ path: '/userName', message: 'must be an email address' }]);
    let changed: { name: string; email: string | null } | undefined;
    try {
      changed = await store.updateProfile(this.db, id, { name: input.name?.trim(), email });
    } catch (e) {
      if (isUniqueViolation(e)) throw errors.conflict('email_taken', `Another user of this organization already has the email ${email}.`);
      throw e;
    }
    this.cache.forgetPrincipal(id);
    return changed;
  }

  /**
   * Whom a request names: the caller, or (owners and managers, service accounts with those roles
   * included) another user of the organization by id or by email. `forbidden` says what a member
   * may not do for another.
   */
  async subject(principal: Principal, by: { userId?: string; email?: string }, forbidden: string): Promise<string> {
    if (by.userId !== undefined && by.email !== undefined) throw errors.badRequest('Name the user by user_id or by email, not both.');
    const userId = by.userId?.toLowerCase();
    const email = by.email === undefined ? undefined : normalizeEmail(by.email);
    if (userId === undefined && email === undefined) return principal.id;
    if (userId === principal.id || (email !== undefined && principal.email !== null && email === normalizeEmail(principal.email))) return principal.id;
    if (!isManagerRole(principal.role)) throw errors.forbidden(forbidden);
    if (userId !== undefined) {
      if ((await this.organizationOf({ principalId: userId })) !== principal.orgId) throw errors.notFound('User', 'user_not_found');
      return userId;
    }
    const [user] = await store.findUsersByEmail(this.db, principal.orgId, [email!]);
    if (!user) throw errors.notFound(`User ${email}`, 'user_not_found');
    return user.id;
  }

  /** The users of the organization with these emails: a user may be added once, so callers reuse them. */
  findUsersByEmail(orgId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    return store.findUsersByEmail(this.db, orgId, emails);
  }

  /** The organization of a principal or key id (both are unique across organizations). */
  async organizationOf(by: { principalId: string } | { keyId: string }): Promise<string | undefined> {
    if (!isUuid('principalId' in by ? by.principalId : by.keyId)) return undefined;
    return 'principalId' in by ? store.orgOfPrincipal(this.db, by.principalId) : store.orgOfApiKey(this.db, by.keyId);
  }

  /** The principal of an id, in whichever organization (ids are unique across them). */
  async findPrincipalById(id: string): Promise<PrincipalRow | undefined> {
    const orgId = await store.orgOfPrincipal(this.db, id);
    return orgId === undefined ? undefined : store.findPrincipal(this.db, orgId, { id });
  }

  findPrincipal(orgId: string, by: { id: string } | { email: string }): Promise<PrincipalRow | undefined> {
    return store.findPrincipal(this.db, orgId, 'email' in by ? { email: normalizeEmail(by.email) } : by);
  }

  /** Which of these ids are users of the organization (service accounts are not users). */
  async userIdsAmong(orgId: string, ids: string[]): Promise<Set<string>> {
    return new Set((await store.findUsersByIds(this.db, orgId, ids)).map((u) => u.id));
  }

  /** The users of the organization with these emails (compared as the service stores them: normalised). */
  async usersByEmail(orgId: string, emails: string[]): Promise<Map<string, string>> {
    const rows = await store.findUsersByEmail(this.db, orgId, [...new Set(emails.map(normalizeEmail))]);
    return new Map(rows.map((u) => [u.email, u.id]));
  }

  /** The users these client account ids are linked to. */
  async usersByAccount(orgId: string, accountIds: string[]): Promise<Map<string, string>> {
    const rows = await store.usersByAccount(this.db, orgId, [...new Set(accountIds)]);
    return new Map(rows.map((r) => [r.account_id, r.principal_id]));
  }

  private async userForChange(orgId: string, email: string): Promise<PrincipalRow> {
    const user = await store.findPrincipal(this.db, orgId, { email: normalizeEmail(email) });
    if (!user || user.kind !== 'user') throw errors.notFound(`User ${normalizeEmail(email)}`, 'user_not_found');
    return user;
  }

  private async keepAnOwner(orgId: string, what: string): Promise<void> {
    // Owners are locked first, so two changes at once cannot both take one of the last two.
    await this.db.query(`SELECT id FROM principals WHERE org_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE`, [orgId]);
    if ((await store.countOwners(this.db, orgId)) <= 1)
      throw errors.conflict('last_owner', `Cannot ${what}: an organization keeps at least one owner. Make another user owner first.`);
  }
}
