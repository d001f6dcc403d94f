import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { monthStart, nextMonthStart, utcDay } from '../core/days.js';
import { errors } from '../core/http/errors.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import type { AlertSettings, AlertsQuery, AlertView } from './schemas.js';
import { alertsStore as store, type AlertRow } from './store.js';

const DEFAULT_THRESHOLDS = [50, 80, 100] as const;

/** The data of a usage.threshold_crossed event (webhooks/catalogue.ts). */
export type ThresholdCrossed = Omit<AlertView, 'createdAt' | 'id'> & { alertId: string; periodEnd: string };

/** Where an alert goes once made: the webhook events, written in the same transaction. */
export interface AlertSink {
  thresholdCrossed(orgId: string, alert: ThresholdCrossed): Promise<void>;
}

export interface AlertsDeps {
  db: Db;
  /** Told of each new alert in the transaction that made it; none: alerts are only listed. */
  sink?: AlertSink;
  clock?: Clock;
}

const alertView = (r: AlertRow): AlertView => ({
  id: r.id,
  scope: r.scope,
  scopeId: r.scope_id,
  scopeName: r.scope_name,
  threshold: r.threshold,
  limit: Number(r.limit_credits),
  used: Number(r.used_credits),
  periodStart: r.period_start,
  createdAt: r.created_at.getTime(),
});

function checkAscending(settings: AlertSettings): void {
  const problems = (['personThresholds', 'teamThresholds', 'organizationThresholds'] as const).flatMap((field) =>
    settings[field].flatMap((t, i, all) =>
      i > 0 && t <= all[i - 1]! ? [{ path: `/${field}/${i}`, message: 'must be greater than the threshold before it: thresholds ascend' }] : [],
    ),
  );
  if (problems.length > 0) throw errors.invalid(problems);
}

/**
 * Usage alerts (docs/alerts.md): as usage is recorded, in its transaction, each scope the usage
 * counts against (the person, their teams with a budget, the organization with a budget) is
 * compared with its thresholds, and a threshold reached for the first time this period becomes
 * one alert (one per scope, threshold and period: a unique key) and its webhook event.
 */
export class AlertsService {
  private readonly db: Db;
  private readonly sink: AlertSink | undefined;
  private readonly clock: Clock;

  constructor({ db, sink, clock = systemClock }: AlertsDeps) {
    this.db = db;
    this.sink = sink;
    this.clock = clock;
  }

  /**
   * Called in the transaction that recorded credits for these people (AnalyticsService.recordBatch),
   * after the rollups' writes, so the use read here includes them.
   */
  async usageRecorded(orgId: string, userIds: readonly string[]): Promise<void> {
    const now = this.clock.now();
    const day = utcDay(now.getTime());
    const period = { start: monthStart(day), end: nextMonthStart(day) };
    // The embedded engine runs one transaction at a time: no batch can commit in between, no lock is needed.
    if (this.db.engine === 'postgres') store.lockPeriod(this.db, orgId, period.start);
    const made = await store.evaluate(this.db, orgId, userIds, period, now, DEFAULT_THRESHOLDS);
    if (!this.sink) return;
    for (const row of made) {
      const { id, createdAt: _createdAt, ...alert } = alertView(row);
      await this.sink.thresholdCrossed(orgId, { alertId: id, ...alert, periodEnd: period.end });
    }
  }

  /** Owners and managers see every alert (or their own with `mine`); everyone else only their own. */
  async list(caller: Principal, q: AlertsQuery) {
    const own = q.mine === true || !isManagerRole(caller.role);
    const [at, id] = q.cursor ? q.cursor.split('_') : [];
    const before = at !== undefined && id !== undefined ? { at: new Date(Number(at)), id } : null;
    const rows = await store.list(this.db, caller.orgId, { personId: own ? caller.id : null, before, limit: q.limit + 1 });
    const page = rows.slice(0, q.limit).map(alertView);
    const last = page[page.length - 1];
    return { alerts: page, nextCursor: rows.length > q.limit && last ? `${last.createdAt}_${last.id}` : null };
  }

  async settings(orgId: string): Promise<AlertSettings> {
    const row = await store.settings(this.db, orgId);
    return {
      personThresholds: row?.person_thresholds ?? [...DEFAULT_THRESHOLDS],
      teamThresholds: row?.team_thresholds ?? [...DEFAULT_THRESHOLDS],
      organizationThresholds: row?.organization_thresholds ?? [...DEFAULT_THRESHOLDS],
      organizationBudget: row?.organization_budget == null ? null : Number(row.organization_budget),
    };
  }

  async setSettings(orgId: string, s: AlertSettings): Promise<AlertSettings> {
    checkAscending(s);
    await store.putSettings(
      this.db,
      orgId,
      { person: s.personThresholds, team: s.teamThresholds, organization: s.organizationThresholds, budget: s.organizationBudget },
      this.clock.now(),
    );
    return s;
  }
}
