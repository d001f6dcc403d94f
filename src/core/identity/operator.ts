import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { Db } from '../db/db.js';
import { errors } from '../http/errors.js';
import type { Role } from './roles.js';
import type { Scope } from './scopes.js';
import { issueKey, noCache, type CreatedKey, type CredentialCache, type IdentityService } from './service.js';
import { identityStore as store, type ApiKeyRow, type PrincipalRow } from './store.js';

export interface OperatorIdentityDeps {
  db: Db;
  /** Adds users, changes roles and finds principals with the same rules the API's callers get. */
  identity: IdentityService;
  /** Key expiries and revocation times; by default the system's. */
  clock?: Clock;
  /** Told of revocations, so a running process's cached credentials drop them at once; by default none. */
  cache?: CredentialCache;
}

/**
 * Identity for the operator, who has the database rather than a principal: `orgctl init`,
 * `users`, `keys`, `orgs` and `service-accounts` open it directly, and `serve` creates the first
 * organization. No role limits these (whoever can open the database can change anything in it),
 * but the rules that protect the data still hold: an organization keeps an owner, emails are
 * unique, keys are shown once.
 */
export class OperatorIdentity {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly clock: Clock;
  private readonly cache: CredentialCache;

  constructor({ db, identity, clock = systemClock, cache = noCache }: OperatorIdentityDeps) {
    this.db = db;
    this.identity = identity;
    this.clock = clock;
    this.cache = cache;
  }

  /** A new organization with its owner and the owner's first key, all or nothing. */
  async createOrganization(input: { name: string; ownerEmail: string; ownerName?: string }) {
    const orgId = randomUUID();
    return this.db.transaction(async () => {
      await store.insertOrganization(this.db, { id: orgId, name: input.name });
      const owner = await this.identity.addUser({ orgId, email: input.ownerEmail, role: 'owner', name: input.ownerName });
      const created = await issueKey(this.db, { orgId, principalId: owner.id, name: 'owner key', expiresAt: null, createdBy: null });
      return { orgId, userId: owner.id, apiKey: created.secret };
    });
  }

  listOrganizations() {
    return store.listOrganizations(this.db);
  }

  organizationSummaries() {
    return store.organizationSummaries(this.db);
  }

  /** Owners who could not call the API now: no key of theirs works. `serve` says how to make one. */
  ownersWithoutKeys() {
    return store.ownersWithoutKeys(this.db, this.clock.now());
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

  /** Moves an organization to another plan (its request rates, docs/rate-limits.md); returns the plan it had. */
  async setPlan(orgId: string, plan: string): Promise<string> {
    const previous = await store.setPlan(this.db, orgId, plan);
    if (previous === undefined) throw errors.notFound(`Organization ${orgId}`, 'organization_not_found');
    return previous;
  }

  /** Everyone of the organization, with how many working keys each has. */
  listPrincipals(orgId: string) {
    return store.listPrincipals(this.db, orgId, this.clock.now());
  }

  addUser(input: { orgId: string; email: string; role: Role; name?: string }) {
    return this.identity.addUser(input);
  }

  /** Any user's role; the last owner stays (409). */
  setUserRole(orgId: string, email: string, role: Role) {
    return this.identity.setUserRole(orgId, email, role);
  }

  /** Any user, with their keys; the last owner stays (409). */
  removeUser(orgId: string, email: string) {
    return this.identity.removeUser(orgId, email);
  }

  async addServiceAccount(input: { orgId: string; name: string; role: 'manager' | 'member' }) {
    const id = randomUUID();
    await store.insertPrincipal(this.db, { id, orgId: input.orgId, kind: 'service_account', email: null, name: input.name, role: input.role });
    return { id, name: input.name, role: input.role };
  }

  findPrincipal(orgId: string, by: { id: string } | { email: string }): Promise<PrincipalRow | undefined> {
    return this.identity.findPrincipal(orgId, by);
  }

  findUsersByEmail(orgId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    return this.identity.findUsersByEmail(orgId, emails);
  }

  /** The organization of a principal or key id, which the commands accept without --org-id. */
  organizationOf(by: { principalId: string } | { keyId: string }): Promise<string | undefined> {
    return this.identity.organizationOf(by);
  }

  /** A key for any principal of the organization, without expiry; made by nobody (`created_by` stays empty). */
  async createKey(orgId: string, holder: { id: string } | { email: string }, name?: string, scopes?: readonly Scope[]): Promise<CreatedKey> {
    const principal = await this.identity.findPrincipal(orgId, holder);
    if (!principal) throw errors.notFound('Principal', 'user_not_found');
    return issueKey(this.db, { orgId, principalId: principal.id, name: name ?? 'api key', expiresAt: null, createdBy: null, ...(scopes ? { scopes } : {}) });
  }

  /** The keys of an organization, or of one holder. */
  listKeys(orgId: string, principalId?: string): Promise<ApiKeyRow[]> {
    return store.listApiKeys(this.db, orgId, principalId);
  }

  /** Revokes any key; revoking twice changes nothing. */
  async revokeKey(orgId: string, keyId: string): Promise<{ already: boolean }> {
    const key = await store.findApiKey(this.db, orgId, keyId);
    if (!key) throw errors.notFound('API key', 'api_key_not_found');
    if (key.revoked_at) return { already: true };
    await store.revokeApiKey(this.db, orgId, keyId, this.clock.now());
    this.cache.forgetKey(keyId);
    return { already: false };
  }
}
