import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OWASP's first Argon2id configuration (19 MiB, 2 passes, 1 lane): about 30 ms a hash here,
 * slow enough for guessing and cheap enough for a sign-in. `algorithm: 2` is Argon2id; the
 * package declares its enum `const`, which our isolated modules cannot import.
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2ID);

/** A hash verified when the account does not exist, so the answer takes as long either way. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword(randomToken());
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** 256 random bits, URL-safe: session, setup and invitation tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Tokens carry 256 bits, so one fast hash is enough; only this hash is stored. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The CSRF token of a session, derived from its secret token: nothing more to store, it changes
 * with each session, and a page script that can read it still cannot learn the session cookie.
 */
export const csrfTokenOf = (sessionToken: string): string => createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
