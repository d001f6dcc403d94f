import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../clock.js';
import type { Db } from '../db/db.js';
import { hashApiKey, isWellFormedApiKey } from './api-key-format.js';
import type { JwtVerifier } from './jwt-verifier.js';
import { toPrincipal } from './principal.js';
import type { Principal } from './roles.js';
import { identityStore as store } from './store.js';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/** How long a stale entry may still answer while its refresh runs, when this process is the only writer. */
const SOLE_WRITER_MAX_STALE_MS = 30_000;

type Verified = { principal: Principal; validUntil: number };

export interface AuthenticatorOptions {
  /** How long a verified credential is reused without a query (≤ 1 s). */
  cacheTtlMs: number;
  /**
   * True when no other process writes to the database (the embedded engine, whose data
   * directory is locked to this process): every revocation, role change and removal then passes
   * through `forgetKey` or `forgetPrincipal`, so a stale entry may answer while it is re-read in
   * the background, and a long query on the single embedded connection never holds up
   * authentication.
   */
  soleWriter: boolean;
  onBackgroundError: (e: unknown) => void;
}

export interface AuthenticatorDeps extends AuthenticatorOptions {
  db: Db;
  jwt: JwtVerifier;
  /** Times the cache and `lastUsedAt`; by default the system's. */
  clock?: Clock;
}

/**
 * Turns an Authorization header into a principal, or null. Verified credentials are reused for at
 * most `cacheTtlMs` (≤ 1 s) so a hot key costs no query, while a revocation, expiry or role change
 * made by another process takes effect within that time; one made in this process, at once.
 */
export class Authenticator {
  /** By presented token; an entry is fresh until `freshUntil`, and kept past it only for the stale window. */
  private readonly cache: LRUCache<string, { verified: Verified; freshUntil: number }>;
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly refreshing = new Set<string>();
  /** Moves on at every eviction: a verification that began in an earlier generation is not cached. */
  private generation = 0;
  private readonly now: () => number;
  private readonly db: Db;
  private readonly jwt: JwtVerifier;
  private readonly options: AuthenticatorOptions;

  constructor({ db, jwt, clock = systemClock, ...options }: AuthenticatorDeps) {
    this.db = db;
    this.jwt = jwt;
    this.options = options;
    this.now = () => clock.now().getTime();
    // ttlResolution 0: lru-cache would otherwise keep a read of the time for a millisecond of real
    // time, and miss a test clock's advance made within it.
    this.cache = new LRUCache({ max: 10_000, perf: { now: this.now }, ttlResolution: 0 });
  }

  forgetKey(keyId: string): void {
    this.forget(({ credential }) => credential.type === 'api_key' && credential.keyId === keyId);
  }

  /** A principal's role changed or it was removed: its keys and tokens are read again on their next use. */
  forgetPrincipal(principalId: string): void {
    this.forget((principal) => principal.id === principalId);
  }

  private forget(matches: (principal: Principal) => boolean): void {
    // A verification already under way read the database before the change; it must not put
    // what it read back into the cache after this eviction.
    this.generation++;
    for (const [token, { verified }] of this.cache.entries()) {
      if (matches(verified.principal)) this.cache.delete(token);
    }
  }

  /**
   * The principal of a credential verified within the cache's lifetime, without any I/O: the
   * common case answers synchronously. Undefined when the credential must be (re)verified.
   * Entries are keyed by the presented token itself, which only ever lives in this process's
   * memory; what reaches the database is its hash.
   */
  cached(header: string | undefined): Principal | undefined {
    const token = bearerToken(header);
    if (token === undefined) return undefined;
    const hit = this.cache.get(token);
    const now = this.now();
    if (!hit || hit.verified.validUntil <= now) return undefined;
    if (now >= hit.freshUntil) this.refreshInBackground(token);
    this.noteUse(hit.verified.principal);
    return hit.verified.principal;
  }

  async authenticate(header: string | undefined): Promise<Principal | null> {
    const hit = this.cached(header);
    if (hit) return hit;
    const token = bearerToken(header);
    if (token === undefined) return null;
    const found = await this.verify(token);
    if (!found) return null;
    this.noteUse(found.principal);
    return found.principal;
  }

  private async verify(token: string): Promise<Verified | null> {
    const generation = this.generation;
    const found = isWellFormedApiKey(token) ? await this.fromApiKey(hashApiKey(token)) : await this.fromJwt(token);
    const ttl = found && generation === this.generation ? Math.min(this.options.cacheTtlMs, found.validUntil - this.now()) : 0;
    if (found && ttl > 0) {
      const staleWindow = this.options.soleWriter ? SOLE_WRITER_MAX_STALE_MS : 0;
      this.cache.set(token, { verified: found, freshUntil: this.now() + ttl }, { ttl: ttl + staleWindow });
    } else this.cache.delete(token);
    return found;
  }

  private refreshInBackground(token: string): void {
    if (this.refreshing.has(token)) return;
    this.refreshing.add(token);
    this.verify(token)
      .catch(this.options.onBackgroundError)
      .finally(() => this.refreshing.delete(token));
  }

  private async fromApiKey(hash: string): Promise<Verified | null> {
    const row = await store.findCredentialByHash(this.db, hash);
    if (!row || row.revoked_at !== null) return null;
    const validUntil = row.expires_at === null ? Number.POSITIVE_INFINITY : row.expires_at.getTime();
    if (validUntil <= this.now()) return null;
    return { principal: toPrincipal(row, { type: 'api_key', keyId: row.key_id }, row.scopes), validUntil };
  }

  private async fromJwt(token: string): Promise<Verified | null> {
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
    store.touchApiKey(this.db, keyId, new Date(now)).catch(this.options.onBackgroundError);
  }
}

const BEARER = /^Bearer ([^\s]+)$/i;

function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header.trim())?.[1];
}
