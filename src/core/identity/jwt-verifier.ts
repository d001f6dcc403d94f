import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../config.js';
import { systemClock, type Clock } from '../clock.js';
import { isUuid } from '../uuid.js';

export interface VerifiedJwt {
  userId: string;
  orgId: string;
  expiresAt: number;
}

/** The JWT settings of the configuration: the verifier is given these, never the whole of it. */
export type JwtSettings = Pick<Config, 'jwtSecret' | 'jwtJwksUrl' | 'jwtIssuer' | 'jwtAudience' | 'jwtMaxLifetimeS'>;

export interface JwtVerifierDeps {
  settings: JwtSettings;
  /** The time a token's `exp` and lifetime are checked against; by default the system's. */
  clock?: Clock;
}

const CLOCK_SKEW_S = 60;
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Verifies JWT bearer tokens: HS256 with JWT_SECRET, or asymmetric algorithms against JWT_JWKS_URL.
 * The algorithm list is pinned per key source, so `alg: none` or an HS256 token signed with a public
 * key never passes. `exp` and `sub` are required; `iss`/`aud` when configured.
 */
export class JwtVerifier {
  private readonly secret: Uint8Array | undefined;
  private readonly jwks: JWTVerifyGetKey | undefined;
  private readonly settings: JwtSettings;
  private readonly clock: Clock;

  constructor({ settings, clock = systemClock }: JwtVerifierDeps) {
    this.settings = settings;
    this.clock = clock;
    this.secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : undefined;
    this.jwks = settings.jwtJwksUrl ? createRemoteJWKSet(new URL(settings.jwtJwksUrl)) : undefined;
  }

  get enabled(): boolean {
    return this.secret !== undefined || this.jwks !== undefined;
  }

  async verify(token: string): Promise<VerifiedJwt | null> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return null;
    }
    const at = this.clock.now();
    const options = {
      currentDate: at,
      issuer: this.settings.jwtIssuer,
      audience: this.settings.jwtAudience,
      requiredClaims: ['exp', 'sub'],
    };
    try {
      const { payload } =
        alg === 'HS256' && this.secret
          ? await jwtVerify(token, this.secret, { ...options, algorithms: ['HS256'] })
          : this.jwks && alg !== 'HS256'
            ? await jwtVerify(token, this.jwks, { ...options, algorithms: ASYMMETRIC })
            : { payload: undefined };
      if (!payload) return null;
      // jose checks that exp has not passed; a token valid for centuries (an exp in milliseconds)
      // or issued in the future is a mistake or a forgery, and is refused as well.
      const now = at.getTime() / 1000;
      if ((payload.exp as number) > now + this.settings.jwtMaxLifetimeS) return null;
      if (payload.iat !== undefined && payload.iat > now + CLOCK_SKEW_S) return null;
      const orgId = payload['org_id'];
      if (typeof payload.sub !== 'string' || !isUuid(payload.sub) || typeof orgId !== 'string' || !isUuid(orgId)) return null;
      return { userId: payload.sub.toLowerCase(), orgId: orgId.toLowerCase(), expiresAt: (payload.exp as number) * 1000 };
    } catch {
      return null;
    }
  }
}
