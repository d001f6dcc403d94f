import type { Db } from '../db/db.js';
import { hashApiKey, isWellFormedApiKey } from './api-key-format.js';
import type { JwtVerifier } from './jwt-verifier.js';
import type { Principal } from './roles.js';
import { identityStore as store, type PrincipalRow } from './store.js';
import { TtlCache } from './ttl-cache.js';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * Turns an Authorization header into a principal, or null. Verified credentials are reused for at
 * most `cacheTtlMs` (≤ 1 s) so a hot key costs no query, while a revocation, expiry or role change
 * elsewhere still takes effect within that time; a revocation in this process takes effect at once.
 */
export class Authenticator {
  private readonly cache: TtlCache<Principal>;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly jwt: JwtVerifier,
    private readonly cacheTtlMs: number,
    private readonly onBackgroundError: (e: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(10_000, now);
  }

  forgetKey(keyId: string): void {
    this.cache.deleteWhere((p) => p.credential.type === 'api_key' && p.credential.keyId === keyId);
  }

  async authenticate(header: string | undefined): Promise<Principal | null> {
    const match = header === undefined ? null : /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) return null;
    const token = match[1]!;
    const cacheKey = isWellFormedApiKey(token) ? hashApiKey(token) : token;
    const cached = this.cache.get(cacheKey);
    if (cached) {
      this.noteUse(cached);
      return cached;
    }
    const found = isWellFormedApiKey(token) ? await this.fromApiKey(cacheKey) : await this.fromJwt(token);
    if (!found) return null;
    this.cache.set(cacheKey, found.principal, Math.min(this.cacheTtlMs, found.validUntil - this.now()));
    this.noteUse(found.principal);
    return found.principal;
  }

  private async fromApiKey(hash: string): Promise<{ principal: Principal; validUntil: number } | null> {
    const row = await store.findCredentialByHash(this.db, hash);
    if (!row || row.revoked_at !== null) return null;
    const validUntil = row.expires_at === null ? Number.POSITIVE_INFINITY : row.expires_at.getTime();
    if (validUntil <= this.now()) return null;
    return { principal: toPrincipal(row, { type: 'api_key', keyId: row.key_id }), validUntil };
  }

  private async fromJwt(token: string): Promise<{ principal: Principal; validUntil: number } | null> {
    if (!this.jwt.enabled || token.split('.').length !== 3) return null;
    const claims = await this.jwt.verify(token);
    if (!claims) return null;
    // The role comes from the database, not the token, so a demotion applies at once.
    const row = await store.findPrincipal(this.db, claims.orgId, { id: claims.userId });
    if (!row || row.kind !== 'user') return null;
    return { principal: toPrincipal(row, { type: 'jwt' }), validUntil: claims.expiresAt };
  }

  /** Records lastUsedAt at most once a minute per key, off the request's path. */
  private noteUse(principal: Principal): void {
    if (principal.credential.type !== 'api_key') return;
    const keyId = principal.credential.keyId;
    const now = this.now();
    if (now - (this.lastUsedWritten.get(keyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWritten.set(keyId, now);
    if (this.lastUsedWritten.size > 10_000) this.lastUsedWritten.clear();
    store.touchApiKey(this.db, keyId, new Date(now)).catch(this.onBackgroundError);
  }
}

function toPrincipal(row: PrincipalRow, credential: Principal['credential']): Principal {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    name: row.name,
    role: row.role,
    orgId: row.org_id,
    orgName: row.org_name,
    credential,
  };
}
