import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, SCIM_TOKEN_PREFIX } from '../core/identity/api-key-format.js';
import type { Principal } from '../core/identity/roles.js';
import { scimStore as store, type ScimTokenRow } from './store.js';

export interface ScimTokensDeps {
  db: Db;
  clock?: Clock;
}

export interface ScimTokenView {
  id: string;
  name: string;
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

const view = (t: ScimTokenRow): ScimTokenView => ({
  id: t.id,
  name: t.name,
  prefix: t.display_prefix,
  createdAt: t.created_at.getTime(),
  revokedAt: t.revoked_at?.getTime() ?? null,
  lastUsedAt: t.last_used_at?.getTime() ?? null,
});

/**
 * The bearer tokens an identity provider presents at /scim/v2, made like API keys (the same
 * generator, checksum and SHA-256 hash, under the prefix `ocs_`) but kept apart from them: a SCIM
 * token acts for its organization on the SCIM routes only, and no API key reaches those routes.
 * Owners make and revoke them (the routes check the role); the secret exists only in the answer
 * that creates it. An organization may hold several, so a token can be replaced without a gap.
 */
export class ScimTokens {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor({ db, clock = systemClock }: ScimTokensDeps) {
    this.db = db;
    this.clock = clock;
  }

  async create(actor: Principal, name: string | undefined): Promise<ScimTokenView & { token: string }> {
    const token = generateApiKey(SCIM_TOKEN_PREFIX);
    const id = randomUUID();
    await store.insertToken(this.db, {
      id,
      orgId: actor.orgId,
      name: name ?? 'SCIM',
      hash: hashApiKey(token),
      prefix: displayPrefix(token),
      createdBy: actor.id,
      now: this.clock.now(),
    });
    const created = (await store.listTokens(this.db, actor.orgId)).find((t) => t.id === id);
    if (!created) throw new Error('SCIM token vanished after insert');
    return { ...view(created), token };
  }

  async list(actor: Principal): Promise<ScimTokenView[]> {
    return (await store.listTokens(this.db, actor.orgId)).map(view);
  }

  async revoke(actor: Principal, id: string): Promise<void> {
    if (!(await store.revokeToken(this.db, actor.orgId, id, this.clock.now()))) throw errors.notFound('SCIM token', 'scim_token_not_found');
  }

  /**
   * The token an Authorization header carries and its organization, or undefined. Each request
   * reads the database (no cache): provisioning is a trickle of requests, and a revocation then
   * holds from the very next one, on every process.
   */
  async tokenOf(authorization: string | undefined): Promise<{ id: string; orgId: string } | undefined> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const token = match?.[1];
    if (!token || !isWellFormedApiKey(token, SCIM_TOKEN_PREFIX)) return undefined;
    const row = await store.useToken(this.db, hashApiKey(token), this.clock.now());
    return row && { id: row.id, orgId: row.org_id };
  }
}
