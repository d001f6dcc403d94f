import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type Db } from '../db/db.js';
import { AppError, errors } from '../http/errors.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format.js';
import { isManagerRole, outranksOrEquals, type Principal, type Role } from './roles.js';
import { identityStore as store, type ApiKeyRow, type PrincipalRow } from './store.js';

export interface CreatedKey {
  key: ApiKeyRow;
  secret: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Organizations, principals and API keys: creation, listing and revocation, with the rules of docs/identity-and-access.md. */
export class IdentityService {
  /** Called with a key id when it is revoked, so cached credentials drop it at once. */
  onRevoke: (keyId: string) => void = () => undefined;

  constructor(private readonly db: Db) {}

  async createOrganization(input: { name: string; ownerEmail: string; ownerName?: string }) {
    const orgId = randomUUID();
    return this.db.transaction(async (tx) => {
      await store.insertOrganization(tx, { id: orgId, name: input.name });
      const owner = await this.insertUser(tx, orgId, input.ownerEmail, 'owner', input.ownerName);
      const created = await this.insertKey(tx, { orgId, principalId: owner.id, name: 'owner key', expiresAt: null, createdBy: null });
      return { orgId, userId: owner.id, apiKey: created.secret };
    });
  }

  /** Owners who could not call the API now: no key of theirs works. `serve` says how to make one. */
  ownersWithoutKeys() {
    return store.ownersWithoutKeys(this.db);
  }

  listOrganizations() {
    return store.listOrganizations(this.db);
  }

  /** The organization a command-line call means: the one named, or the only one there is. */
  async resolveOrganization(orgId: string | undefined): Promise<string> {
    const orgs = await store.listOrganizations(this.db);
    if (orgId !== undefined) {
      if (!orgs.some((o) => o.id === orgId)) throw errors.notFound(`Organization ${orgId}`);
      return orgId;
    }
    if (orgs.length === 0) throw errors.notFound('Organization (run `orgctl init` first)');
    if (orgs.length > 1) throw errors.badRequest(`There are ${orgs.length} organizations; pick one with --org-id.`);
    return orgs[0]!.id;
  }

  async addUser(input: { orgId: string; email: string; role: Role; name?: string }) {
    return this.db.transaction((tx) => this.insertUser(tx, input.orgId, input.email, input.role, input.name));
  }

  /** The users of the organization with these emails: a user may be added once, so callers reuse them. */
  findUsersByEmail(orgId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    return store.findUsersByEmail(this.db, orgId, emails);
  }

  /** Which of these ids are users of the organization (service accounts are not users). */
  async userIdsAmong(orgId: string, ids: string[]): Promise<Set<string>> {
    return new Set((await store.findUsersByIds(this.db, orgId, ids)).map((u) => u.id));
  }

  async addServiceAccount(input: { orgId: string; name: string; role: 'manager' | 'member' }) {
    const id = randomUUID();
    await store.insertPrincipal(this.db, { id, orgId: input.orgId, kind: 'service_account', email: null, name: input.name, role: input.role });
    return { id, name: input.name, role: input.role };
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
    let principalId = actor?.id;
    if (input.target !== undefined) {
      const target = await this.findPrincipal(input.orgId, input.target);
      if (!target) throw errors.notFound('Principal');
      if (actor && target.id !== actor.id && !(isManagerRole(actor.role) && outranksOrEquals(actor.role, target.role))) {
        throw errors.forbidden('Only owners and managers may create keys for another principal, and never for a higher role.');
      }
      principalId = target.id;
    }
    if (principalId === undefined) throw errors.badRequest('A key needs a principal.');
    return this.insertKey(this.db, {
      orgId: input.orgId,
      principalId,
      name: input.name ?? 'api key',
      expiresAt: input.expiresAt ?? null,
      createdBy: actor?.id ?? null,
    });
  }

  /** Owners and managers see every key of the organization; others see their own. */
  listApiKeys(actor: Principal, principalId?: string): Promise<ApiKeyRow[]> {
    if (!isManagerRole(actor.role)) return store.listApiKeys(this.db, actor.orgId, actor.id);
    return store.listApiKeys(this.db, actor.orgId, principalId);
  }

  async revokeApiKey(actor: Principal, keyId: string): Promise<void> {
    const key = await store.findApiKey(this.db, actor.orgId, keyId);
    const mayRevoke =
      key !== undefined &&
      (key.principal_id === actor.id || (isManagerRole(actor.role) && outranksOrEquals(actor.role, key.principal_role)));
    // A key the caller may not touch is reported as absent, so key ids of others are not confirmed.
    if (!key || !mayRevoke) throw errors.notFound('API key');
    await store.revokeApiKey(this.db, actor.orgId, keyId, new Date());
    this.onRevoke(keyId);
  }

  private async insertUser(tx: Parameters<typeof store.insertPrincipal>[0], orgId: string, email: string, role: Role, name?: string) {
    const id = randomUUID();
    const normalized = normalizeEmail(email);
    try {
      await store.insertPrincipal(tx, { id, orgId, kind: 'user', email: normalized, name: name ?? normalized, role });
    } catch (e) {
      if (isUniqueViolation(e)) throw errors.conflict(`A user with email ${normalized} already exists in this organization.`);
      throw e;
    }
    return { id, email: normalized, role };
  }

  private async insertKey(
    tx: Parameters<typeof store.insertApiKey>[0],
    k: { orgId: string; principalId: string; name: string; expiresAt: Date | null; createdBy: string | null },
  ): Promise<CreatedKey> {
    const secret = generateApiKey();
    const id = randomUUID();
    await store.insertApiKey(tx, { ...k, id, hash: hashApiKey(secret), prefix: displayPrefix(secret) });
    const key = await store.findApiKey(tx, k.orgId, id);
    if (!key) throw new AppError(500, 'key vanished after insert');
    return { key, secret };
  }
}
