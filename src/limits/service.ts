import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { dayStartMs, monthStart, nextMonthStart, utcDay } from '../core/days.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import { errors } from '../core/http/errors.js';
import { normalizeEmail, type IdentityService } from '../core/identity/service.js';
import { limitsStore as store, type AuditRow } from './store.js';

/** Where the credits a principal used in a period come from (the telemetry rollups). */
export interface CreditsUsage {
  creditsUsed(orgId: string, principalId: string, from: Date, to: Date): Promise<number>;
}

export interface Allowance {
  limit: number | null;
  source: 'individual' | 'global' | 'none';
  used: number;
  remaining: number | null;
  periodStart: string;
  periodEnd: string;
}

/** The calendar month (UTC) holding `at`: [start, end). */
export function monthOf(at: Date): { start: Date; end: Date } {
  const day = utcDay(at.getTime());
  return { start: new Date(dayStartMs(monthStart(day))), end: new Date(dayStartMs(nextMonthStart(day))) };
}

export interface LimitsDeps {
  db: Db;
  /** Finds the users and service accounts a limit is set for. */
  identity: IdentityService;
  /** The credits each principal used (the analytics service, or a test's stand-in). */
  usage: CreditsUsage;
  /** Which month is the current period; by default the system's. */
  clock?: Clock;
}

export class LimitsService {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly usage: CreditsUsage;
  private readonly clock: Clock;

  constructor({ db, identity, usage, clock = systemClock }: LimitsDeps) {
    this.db = db;
    this.identity = identity;
    this.usage = usage;
    this.clock = clock;
  }

  getGlobal(orgId: string): Promise<number | null> {
    return store.getGlobal(this.db, orgId);
  }

  /** Sets or removes the global limit; a real change is written to the audit log in the same transaction. */
  setGlobal(actor: Principal, limit: number | null): Promise<number | null> {
    return this.db.transaction(async () => {
      const old = await store.lockGlobal(this.db, actor.orgId);
      if (old !== limit) {
        await store.setGlobal(this.db, actor.orgId, limit);
        await store.insertAudit(this.db, {
          orgId: actor.orgId,
          actorId: actor.id,
          scope: 'global',
          targetId: null,
          targetEmail: null,
          oldLimit: old,
          newLimit: limit,
        });
      }
      return limit;
    });
  }

  async listUserLimits(orgId: string) {
    const [global, users] = await Promise.all([store.getGlobal(this.db, orgId), store.listUserLimits(this.db, orgId)]);
    return { global, users };
  }

  /**
   * Applies individual overrides. Entries naming no user of the organization, or repeating an
   * email of the same request, are reported in `errors`; the others are applied together.
   */
  async setUserLimits(actor: Principal, entries: { email: string; limit: number | null }[]) {
    const errors: { email: string; error: string }[] = [];
    const wanted = new Map<string, number | null>();
    for (const e of entries) {
      const email = normalizeEmail(e.email);
      if (wanted.has(email)) errors.push({ email: e.email, error: 'The same email appears more than once in this request.' });
      else wanted.set(email, e.limit);
    }
    const updated = await this.db.transaction(async () => {
      // Inside this transaction: the identity service's reads join it.
      const users = await this.identity.findUsersByEmail(actor.orgId, [...wanted.keys()]);
      const idByEmail = new Map(users.map((u) => [u.email, u.id]));
      const current = await store.lockUserLimits(
        this.db,
        users.map((u) => u.id),
      );
      const done: { email: string; limit: number | null }[] = [];
      for (const [email, limit] of wanted) {
        const id = idByEmail.get(email);
        if (id === undefined) {
          errors.push({ email, error: 'No user with this email in the organization.' });
          continue;
        }
        const old = current.get(id) ?? null;
        if (old !== limit) {
          await store.setUserLimit(this.db, actor.orgId, id, limit);
          await store.insertAudit(this.db, {
            orgId: actor.orgId,
            actorId: actor.id,
            scope: 'user',
            targetId: id,
            targetEmail: email,
            oldLimit: old,
            newLimit: limit,
          });
        }
        done.push({ email, limit });
      }
      return done;
    });
    return { updated, errors };
  }

  /** The caller's limit for the current month, where it comes from, and what is left of it. */
  /** The allowance of the caller, or (owners and managers) of another user of the organization. */
  async allowance(principal: Principal, userId?: string): Promise<Allowance> {
    const period = monthOf(this.clock.now());
    let whose = principal.id;
    if (userId !== undefined && userId.toLowerCase() !== principal.id) {
      if (!isManagerRole(principal.role)) throw errors.forbidden("Only owners and managers read another user's allowance.");
      whose = userId.toLowerCase();
      if ((await this.identity.organizationOf({ principalId: whose })) !== principal.orgId) throw errors.notFound('User', 'user_not_found');
    }
    const [{ individual, global }, used] = await Promise.all([
      store.effectiveLimits(this.db, principal.orgId, whose),
      this.usage.creditsUsed(principal.orgId, whose, period.start, period.end),
    ]);
    const limit = individual ?? global;
    const usedCredits = Math.round(used);
    return {
      limit,
      source: individual !== null ? 'individual' : global !== null ? 'global' : 'none',
      used: usedCredits,
      remaining: limit === null ? null : Math.max(0, limit - usedCredits),
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
    };
  }

  auditLog(orgId: string, page: { limit: number; before?: number }): Promise<AuditRow[]> {
    return store.listAudit(this.db, orgId, page);
  }
}
