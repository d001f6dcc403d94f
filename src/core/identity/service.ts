import { systemClock, type Clock } from '../clock.js';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type Db } from '../db/db.js';
import { errors } from '../http/errors.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format.js';
import { isEmail } from './email.js';
import { isUuid } from '../uuid.js';
import { isManagerRole, outranksOrEquals, type Principal, type Role } from './roles.js';
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

const noCache: CredentialCache = { forgetKey: () => undefined, forgetPrincipal: () => undefined };

export interface IdentityDeps {
  db: Db;
  /** Key expiries and `lastUsedAt`; by default the system's. */
  clock?: Clock;
  /** Told of revocations, role changes and removals, so cached credentials drop them at once; by default none. */
  cache?: CredentialCache;
}

/** Organizations, principals and API keys: creation, listing and revocation, with the rules of docs/identity-and-access.md. */
export class IdentityService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly cache: CredentialCache;

  constructor({ db, clock = systemClock, cache = noCache }: IdentityDeps) {
    this.db = db;
    this.clock = clock;
    this.cache = cache;
  }

  async createOrganization(input: { name: string; ownerEmail: string; ownerName?: string }) {
    const orgId = randomUUID();
    return this.db.transaction(async () => {
      await store.insertOrganization(this.db, { id: orgId, name: input.name });
      const owner = await this.insertUser(orgId, input.ownerEmail, 'owner', input.ownerName);
      const created = await this.insertKey({ orgId, principalId: owner.id, name: 'owner key', expiresAt: null, createdBy: null });
      return { orgId, userId: owner.id, apiKey: created.secret };
    });
  }

  /** Owners who could not call the API now: no key of theirs works. `serve` says how to make one. */
  ownersWithoutKeys() {
    return store.ownersWithoutKeys(this.db, this.clock.now());
  }

  listOrganizations() {
    return store.listOrganizations(this.db);
  }

  /** The organization a command-line call means: the one named, or the only one there is. */
  async resolveOrganization(orgId: string | undefined): Promise<string> {
    const orgs = await store.listOrganizations(this.db);
    if (orgId !== undefined) {
      if (!orgs.some((o) => o.id === orgId)) throw errors.notFound(`Organization ${orgId}`, 'organization_not_found');
      return orgId;
    }
    if (orgs.length === 0) throw errors.notFound('Organization (run `orgctl init` first)', 'organization_not_found');
    if (orgs.length > 1) {
      throw errors.badRequest(`There are ${orgs.length} organizations; pick one with --org-id: ${orgs.map((o) => `${o.id} ("${o.name}")`).join(', ')}.`);
    }
    return orgs[0]!.id;
  }

  /** Adds a user; inside a caller's transaction it joins it (an accepted invitation sets the password in the same one). */
  addUser(input: { orgId: string; email: string; role: Role; name?: string }) {
    return this.insertUser(input.orgId, input.email, input.role, input.name);
  }

  /** The users of the organization with these emails: a user may be added once, so callers reuse them. */
  findUsersByEmail(orgId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    return store.findUsersByEmail(this.db, orgId, emails);
  }

  /** Everyone of the organization, with how many working keys each has (for operators). */
  listPrincipals(orgId: string) {
    return store.listPrincipals(this.db, orgId, this.clock.now());
  }

  /** Moves an organization to another plan (its request rates, docs/rate-limits.md); returns the plan it had. */
  async setPlan(orgId: string, plan: string): Promise<string> {
    const previous = await store.setPlan(this.db, orgId, plan);
    if (previous === undefined) throw errors.notFound(`Organization ${orgId}`, 'organization_not_found');
    return previous;
  }

  organizationSummaries() {
    return store.organizationSummaries(this.db);
  }

  /** The organization of a principal or key id (both are unique across organizations). */
  async organizationOf(by: { principalId: string } | { keyId: string }): Promise<string | undefined> {
    if (!isUuid('principalId' in by ? by.principalId : by.keyId)) return undefined;
    return 'principalId' in by ? store.orgOfPrincipal(this.db, by.principalId) : store.orgOfApiKey(this.db, by.keyId);
  }

  /**
   * An operator's change of a user's role. An organization always keeps an owner: the last one
   * cannot be demoted (409). Keys and tokens act with the new role from the next request on.
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

  /** An operator's removal of a user with their keys, which stop working at once; the last owner stays (409). */
  async removeUser(orgId: string, email: string): Promise<{ id: string; email: string }> {
    const removed = await this.db.transaction(async () => {
      const user = await this.userForChange(orgId, email);
      if (user.role === 'owner') await this.keepAnOwner(orgId, `remove ${user.email}`);
      await store.deletePrincipal(this.db, user.id);
      return { id: user.id, email: user.email as string };
    });
    this.cache.forgetPrincipal(removed.id);
    return removed;
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

  /** Links a client account id to a user of the organization (owner or manager; the route checks the role). */
  async linkAccount(orgId: string, email: string, accountId: string): Promise<{ accountId: string; userId: string; email: string }> {
    const user = await store.findPrincipal(this.db, orgId, { email: normalizeEmail(email) });
    if (!user || user.kind !== 'user') throw errors.notFound(`User ${email}`, 'user_not_found');
    await store.linkAccount(this.db, orgId, accountId, user.id);
    return { accountId, userId: user.id, email: user.email as string };
  }

  async unlinkAccount(orgId: string, accountId: string): Promise<void> {
    if (!(await store.unlinkAccount(this.db, orgId, accountId))) throw errors.notFound(`Account link ${accountId}`, 'account_link_not_found');
  }

  async accountLinks(orgId: string) {
    return (await store.listAccountLinks(this.db, orgId)).map((l) => ({
      accountId: l.account_id,
      userId: l.principal_id,
      email: l.email,
      createdAt: l.created_at.getTime(),
    }));
  }

  async addServiceAccount(input: { orgId: string; name: string; role: 'manager' | 'member' }) {
    const id = randomUUID();
    await store.insertPrincipal(this.db, { id, orgId: input.orgId, kind: 'service_account', email: null, name: input.name, role: input.role });
    return { id, name: input.name, role: input.role };
  }

  async serviceAccounts(orgId: string) {
    return (await store.listServiceAccounts(this.db, orgId, this.clock.now())).map((a) => ({
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
    const { id } = await this.addServiceAccount({ orgId: actor.orgId, ...input });
    const created = (await this.serviceAccounts(actor.orgId)).find((a) => a.id === id);
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

  /** The principal of an id, in whichever organization (ids are unique across them). */
  async findPrincipalById(id: string): Promise<PrincipalRow | undefined> {
    const orgId = await store.orgOfPrincipal(this.db, id);
    return orgId === undefined ? undefined : store.findPrincipal(this.db, orgId, { id });
  }

  findPrincipal(orgId: string, by: { id: string } | { email: string }): Promise<PrincipalRow | undefined> {
    return store.findPrincipal(this.db, orgId, 'email' in by ? { email: normalizeEmail(by.email) } : by);
  }

  /**
   * Issues a key. Without a target it is the caller's own; owners and managers may name another
   * principal of their organization, but never one whose role is above their own.
   */
  async createApiKey(
    actor: Pick<Principal, 'id' | 'orgId' | 'role'> | null,
    input: { orgId: string; target?: { id: string } | { email: string }; name?: string; expiresAt?: Date | null },
  ): Promise<CreatedKey> {
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock.now().getTime())
      throw errors.invalid([{ path: '/expiresAt', message: 'must be in the future' }]);
    let principalId = actor?.id;
    if (input.target !== undefined) {
      const target = await this.findPrincipal(input.orgId, input.target);
      if (!target) throw errors.notFound('Principal', 'user_not_found');
      if (actor && target.id !== actor.id && !(isManagerRole(actor.role) && outranksOrEquals(actor.role, target.role))) {
        throw errors.forbidden('Only owners and managers may create keys for another principal, and never for a higher role.');
      }
      principalId = target.id;
    }
    if (principalId === undefined) throw errors.badRequest('A key needs a principal.');
    return this.insertKey({
      orgId: input.orgId,
      principalId,
      name: input.name ?? 'api key',
      expiresAt: input.expiresAt ?? null,
      createdBy: actor?.id ?? null,
    });
  }

  /** An operator's view of the keys of an organization, or of one holder. */
  listKeysOf(orgId: string, principalId?: string): Promise<ApiKeyRow[]> {
    return store.listApiKeys(this.db, orgId, principalId);
  }

  /** An operator's revocation, beyond any role; revoking twice changes nothing. */
  async revokeKeyAsOperator(orgId: string, keyId: string): Promise<{ already: boolean }> {
    const key = await store.findApiKey(this.db, orgId, keyId);
    if (!key) throw errors.notFound('API key', 'api_key_not_found');
    if (key.revoked_at) return { already: true };
    await store.revokeApiKey(this.db, orgId, keyId, this.clock.now());
    this.cache.forgetKey(keyId);
    return { already: false };
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

  private async insertUser(orgId: string, email: string, role: Role, name?: string) {
    const id = randomUUID();
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized)) throw errors.badRequest(`"${email}" is not an email address.`);
    try {
      await store.insertPrincipal(this.db, { id, orgId, kind: 'user', email: normalized, name: name ?? normalized, role });
    } catch (e) {
      if (isUniqueViolation(e)) throw errors.conflict('email_taken', `A user with email ${normalized} already exists in this organization.`);
      throw e;
    }
    return { id, email: normalized, role };
  }

  private async insertKey(k: { orgId: string; principalId: string; name: string; expiresAt: Date | null; createdBy: string | null }): Promise<CreatedKey> {
    const secret = generateApiKey();
    const id = randomUUID();
    await store.insertApiKey(this.db, { ...k, id, hash: hashApiKey(secret), prefix: displayPrefix(secret) });
    const key = await store.findApiKey(this.db, k.orgId, id);
    if (!key) throw new Error('key vanished after insert');
    return { key, secret };
  }
}
