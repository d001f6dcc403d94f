import type { Clock } from '../clock.js';
import type { Db } from '../db/db.js';
import { errors } from '../http/errors.js';
import { accountsStore as store } from './store.js';

/**
 * How failed sign-ins under one key slow the next attempt down: `free` failures cost nothing;
 * from then on each attempt waits `baseMs`, doubled at every further failure, at most `maxMs`,
 * after the last failure. A key with no failure for `forgetAfterMs` starts again from zero.
 */
export interface ThrottlePolicy {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetAfterMs: number;
}

/**
 * OWASP's authentication guidance: growing delays rather than an account lock, so a guesser is
 * slowed to one try a minute while the real person, never locked out for long, can sign in once
 * the current wait (at most a minute) has passed. An address gets a larger allowance: several
 * people may share it (an office behind NAT).
 */
export const SIGN_IN_THROTTLE = {
  account: { free: 5, baseMs: 1000, maxMs: 60_000, forgetAfterMs: 3_600_000 },
  address: { free: 20, baseMs: 1000, maxMs: 60_000, forgetAfterMs: 3_600_000 },
} as const satisfies Record<string, ThrottlePolicy>;

/** Counters of failed sign-ins, in the database so that they hold across processes. */
export class SignInThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one failure under `key` before the password is checked, or refuses the attempt with 429
   * and Retry-After while the wait of the key's earlier failures lasts. The caller takes the
   * failure back (`succeeded`) when the password was right.
   */
  async count(key: string, policy: ThrottlePolicy): Promise<void> {
    const now = this.clock.now().getTime();
    if (Math.random() < 0.01) await store.sweepFailures(this.db, now - policy.forgetAfterMs);
    if ((await store.reserveFailure(this.db, key, now, policy)) !== undefined) return;
    const waitS = Math.max(1, Math.ceil((await store.failureWaitMs(this.db, key, now, policy)) / 1000));
    throw errors.tooManyRequests(`Too many failed sign-ins; try again in ${waitS} second${waitS === 1 ? '' : 's'}.`, waitS);
  }

  /** A correct password: the account starts again from zero. */
  reset(key: string): Promise<void> {
    return store.clearFailures(this.db, key);
  }

  /** A correct password from an address takes back its own failure only, so a guesser cannot clear an address's count by signing in to an account of theirs. */
  takeBack(key: string): Promise<void> {
    return store.takeBackFailure(this.db, key);
  }
}
