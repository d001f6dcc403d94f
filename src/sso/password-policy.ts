import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { PrincipalRow } from '../core/identity/store.js';
import { ssoStore as store } from './store.js';

/**
 * What a required SSO means for passwords: a user whose password was right is refused unless an
 * owner (break-glass, so an identity provider that is down or misconfigured cannot lock the
 * organization out). Both outcomes land in the sign-in events owners read.
 */
export class SsoPasswordPolicy {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor({ db, clock = systemClock }: { db: Db; clock?: Clock }) {
    this.db = db;
    this.clock = clock;
  }

  /** Called after the password was verified and before a session starts. */
  async check(user: PrincipalRow): Promise<void> {
    if (!(await store.required(this.db, user.org_id))) return;
    const event = { id: randomUUID(), orgId: user.org_id, at: this.clock.now(), email: user.email, principalId: user.id };
    if (user.role === 'owner') {
      await store.insertEvent(this.db, { ...event, kind: 'break_glass', reason: 'password sign-in of an owner while SSO is required' });
      return;
    }
    await store.insertEvent(this.db, { ...event, kind: 'sign_in_failed', reason: 'password refused: SSO is required' });
    throw errors.forbidden('This organization signs in with single sign-on. Use "Sign in with SSO".', 'sso_required');
  }
}
