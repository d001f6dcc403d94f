import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { dayStartMs, monthStart, nextMonthStart, utcDay } from '../core/days.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import { isFull } from '../core/identity/scopes.js';
import { errors } from '../core/http/errors.js';
import { normalizeEmail, type IdentityService } from '../core/identity/service.js';
import type { TeamBudget } from '../teams/service.js';
import { bindingBudget, budget, type Budget } from './allowance.js';
import { forecast, rateWindow, type Forecast, type RateWindow } from './forecast.js';
import { limitsStore as store, type AuditRow, type Policy } from './store.js';

export type { Policy } from './store.js';

/**
 * An organization that never chose: block. A limit an organization sets is meant to hold, and
 * with no limit nothing is ever blocked, so blocking by default surprises no one who set none;
 * `off` keeps limits advisory for those who want that.
 */
const DEFAULT_POLICY: Policy = { mode: 'block', thresholds: [80, 95], unreachable: 'open' };

const samePolicy = (a: Policy, b: Policy): boolean =>
  a.mode === b.mode && a.unreachable === b.unreachable && a.thresholds.length === b.thresholds.length && a.thresholds.every((t, i) => t === b.thresholds[i]);

/** What the schema cannot say: each threshold above the one before it. */
function checkThresholds(thresholds: number[]): void {
  const problems = thresholds.flatMap((t, i) =>
    i > 0 && t <= thresholds[i - 1]!
      ? [{ path: `/thresholds/${i}`, message: `must be greater than the threshold before it (${thresholds[i - 1]}): thresholds ascend` }]
      : [],
  );
  if (problems.length > 0) throw errors.invalid(problems);
}

/** Where the credits principals used in a period come from (the telemetry rollups). */
export interface CreditsUsage {
  /** What these principals used in [from, to), all together. */
  creditsUsed(orgId: string, principalIds: readonly string[], from: Date, to: Date): Promise<number>;
  /** What every principal of the organization used in [from, to), together. */
  organizationCreditsUsed(orgId: string, from: Date, to: Date): Promise<number>;
}

/** The teams' budgets, which the teams area keeps; set and audited here, as limits are. */
export interface TeamBudgets {
  budgets(orgId: string, memberOf?: string): Promise<TeamBudget[]>;
  lockBudget(orgId: string, teamId: string): Promise<{ id: string; name: string; budget: number | null }>;
  setBudget(teamId: string, budget: number | null): Promise<void>;
}

export interface Allowance {
  /** Of the budget that binds (`source`); used is the person's own when none does. */
  limit: number | null;
  source: 'individual' | 'global' | 'team' | 'none';
  teamId?: string;
  teamName?: string;
  used: number;
  remaining: number | null;
  budgets: Budget[];
  periodStart: string;
  periodEnd: string;
  enforcement: Policy;
  /** Of the budget that binds; of the person's own use when none does. */
  forecast: Forecast;
  /** The organization's use this month and its forecast, for owners and managers reading their own allowance; null otherwise. */
  organization: { used: number; forecast: Forecast } | null;
}

/** What the usage-limit hook decides with, and all a key scoped to allowance:read is told: no one's budgets or forecasts. */
export type GuardAllowance = Pick<Allowance, 'limit' | 'source' | 'teamName' | 'used' | 'remaining' | 'periodStart' | 'periodEnd' | 'enforcement'>;

const guardView = (a: Allowance): GuardAllowance => ({
  limit: a.limit,
  source: a.source,
  ...(a.teamName !== undefined ? { teamName: a.teamName } : {}),
  used: a.used,
  remaining: a.remaining,
  periodStart: a.periodStart,
  periodEnd: a.periodEnd,
  enforcement: a.enforcement,
});

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
  /** The teams' budgets. */
  teams: TeamBudgets;
  /** Which month is the current period; by default the system's. */
  clock?: Clock;
}

export class LimitsService {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly usage: CreditsUsage;
  private readonly teams: TeamBudgets;
  private readonly clock: Clock;

  constructor({ db, identity, usage, teams, clock = systemClock }: LimitsDeps) {
    this.db = db;
    this.identity = identity;
    this.usage = usage;
    this.teams = teams;
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

  async getPolicy(orgId: string): Promise<Policy> {
    return (await store.getPolicy(this.db, orgId)) ?? DEFAULT_POLICY;
  }

  /** Replaces the policy; a real change is written to the limits audit log in the same transaction. */
  setPolicy(actor: Principal, policy: Policy): Promise<Policy> {
    checkThresholds(policy.thresholds);
    const wanted: Policy = { mode: policy.mode, thresholds: [...policy.thresholds], unreachable: policy.unreachable };
    return this.db.transaction(async () => {
      const old = await store.lockPolicy(this.db, actor.orgId, DEFAULT_POLICY);
      if (!samePolicy(old, wanted)) {
        await store.setPolicy(this.db, actor.orgId, wanted);
        await store.insertPolicyAudit(this.db, { orgId: actor.orgId, actorId: actor.id, oldPolicy: old, newPolicy: wanted });
      }
      return wanted;
    });
  }

  /**
   * The limit of the caller (or of the user named) for the current month, where it comes from, what
   * is left of it, and the organization's policy; a narrowly scoped key (a managed install's) gets
   * only what the hook decides with.
   */
  async allowance(principal: Principal, by: { userId?: string; email?: string } = {}): Promise<Allowance | GuardAllowance> {
    const full = await this.fullAllowance(principal, by);
    return isFull(principal.scopes) ? full : guardView(full);
  }

  private async fullAllowance(principal: Principal, by: { userId?: string; email?: string }): Promise<Allowance> {
    const now = this.clock.now();
    const period = monthOf(now);
    const w = rateWindow(now);
    const whose = await this.identity.subject(principal, by, "Only owners and managers read another user's allowance.");
    const [{ individual, global }, own, ownRecent, teams, enforcement, organization] = await Promise.all([
      store.effectiveLimits(this.db, principal.orgId, whose),
      this.creditsUsed(principal.orgId, [whose], period),
      this.creditsUsed(principal.orgId, [whose], w),
      this.teams.budgets(principal.orgId, whose),
      this.getPolicy(principal.orgId),
      // Only on a manager's own reading: the hook of every person reads theirs through a manager key, on every prompt.
      isManagerRole(principal.role) && whose === principal.id ? this.organizationForecast(principal.orgId, period, w) : null,
    ]);
    const mine = (scope: 'user' | 'global', limit: number) => budget(scope, limit, own, forecast(w, own, limit, ownRecent));
    const personal = individual !== null ? mine('user', individual) : global !== null ? mine('global', global) : undefined;
    const budgets = [...(personal ? [personal] : []), ...(await Promise.all(teams.map((t) => this.teamBudget(principal.orgId, t, period, w))))];
    const binding = bindingBudget(budgets);
    return {
      limit: binding?.limit ?? null,
      source: binding === undefined ? 'none' : binding.scope === 'user' ? 'individual' : binding.scope,
      ...(binding?.scope === 'team' ? { teamId: binding.teamId, teamName: binding.teamName } : {}),
      used: binding?.used ?? own,
      remaining: binding?.remaining ?? null,
      budgets,
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
      enforcement,
      forecast: binding?.forecast ?? forecast(w, own, null, ownRecent),
      organization,
    };
  }

  /** The organization's use this month, all principals together, and where it is heading. */
  private async organizationForecast(orgId: string, period: { start: Date; end: Date }, w: RateWindow) {
    const [used, recent] = await Promise.all([
      this.usage.organizationCreditsUsed(orgId, period.start, period.end),
      w.days === 0 ? 0 : this.usage.organizationCreditsUsed(orgId, w.from, w.to),
    ]);
    return { used, forecast: forecast(w, used, null, recent) };
  }

  /** Sets or removes a team's monthly budget; a real change is written to the audit log in the same transaction. */
  setTeamBudget(actor: Principal, teamId: string, limit: number | null): Promise<{ teamId: string; teamName: string; limit: number | null }> {
    return this.db.transaction(async () => {
      const team = await this.teams.lockBudget(actor.orgId, teamId);
      if (team.budget !== limit) {
        await this.teams.setBudget(team.id, limit);
        await store.insertAudit(this.db, {
          orgId: actor.orgId,
          actorId: actor.id,
          scope: 'team',
          targetId: null,
          targetEmail: null,
          team: { id: team.id, name: team.name },
          oldLimit: team.budget,
          newLimit: limit,
        });
      }
      return { teamId: team.id, teamName: team.name, limit };
    });
  }

  /** The teams with a budget, with what their members used this month together and what remains. */
  async teamBudgets(orgId: string): Promise<Budget[]> {
    const now = this.clock.now();
    const period = monthOf(now);
    const teams = await this.teams.budgets(orgId);
    return Promise.all(teams.map((t) => this.teamBudget(orgId, t, period, rateWindow(now))));
  }

  /** A team's budget this period: its members' use together against it, and its forecast at their recent rate together. */
  private async teamBudget(orgId: string, team: TeamBudget, period: { start: Date; end: Date }, w: RateWindow): Promise<Budget> {
    const [used, recent] = await Promise.all([this.creditsUsed(orgId, team.memberIds, period), this.creditsUsed(orgId, team.memberIds, w)]);
    return budget('team', team.budget, used, forecast(w, used, team.budget, recent), team);
  }

  /** Credits used in a period, or in the days of a rate window (none on the 1st of a month). */
  private async creditsUsed(orgId: string, principalIds: readonly string[], period: { start: Date; end: Date } | RateWindow): Promise<number> {
    const [from, to] = 'start' in period ? [period.start, period.end] : [period.from, period.to];
    if (from >= to) return 0;
    return Math.round(await this.usage.creditsUsed(orgId, principalIds, from, to));
  }

  auditLog(orgId: string, page: { limit: number; before?: number }): Promise<AuditRow[]> {
    return store.listAudit(this.db, orgId, page);
  }
}
