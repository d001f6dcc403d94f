import type { Queryable, Transaction } from '../core/db/db.js';

type AlertScope = 'organization' | 'team' | 'person';

export interface AlertRow {
  id: string;
  scope: AlertScope;
  scope_id: string;
  scope_name: string;
  threshold: number;
  period_start: string;
  limit_credits: string;
  used_credits: string;
  created_at: Date;
}

export interface SettingsRow {
  person_thresholds: number[];
  team_thresholds: number[];
  organization_thresholds: number[];
  organization_budget: string | null;
}

/** The key space of the organizations' period locks, for alerts (rollup-store.ts holds 727140002 and 727140003). */
const PERIOD_LOCKS = 727140067;

const pgArray = (xs: readonly number[]) => `{${xs.join(',')}}`;

// Every batch that recorded credits takes its organization's lock of the period, after its rollup
// writes, until its transaction ends: the next statement, which reads the scopes' use, then sees
// every batch that held it before, so of concurrent batches exactly one sees a total pass a
// threshold. One lock per organization costs no parallelism: batches of one day already take turns
// from their writes to the day's shared rows (rollup-store.ts) to their commit, and this lock is
// taken after those. It reads no table, where a lock per open scope meant finding the scopes twice.
const lockPeriodSql = `SELECT pg_advisory_xact_lock(${PERIOD_LOCKS}, hashtext($1::text || '/' || $2::text))`;

// The scopes of the people in the batch (their limit: the individual one, else the global one), of
// their teams with a budget, and of the organization when it has a budget, less those whose every
// threshold is already alerted this period (the steady state past 100 % costs one indexed probe).
const scopesCte = `
  settings AS (
    SELECT coalesce(s.person_thresholds, $4::int[]) AS person, coalesce(s.team_thresholds, $4::int[]) AS team,
           coalesce(s.organization_thresholds, $4::int[]) AS org, s.organization_budget
    FROM (SELECT 1) AS one LEFT JOIN alert_settings s ON s.org_id = $1
  ),
  scopes AS (
    SELECT 'person'::text AS scope, p.id AS scope_id, coalesce(p.email, p.name) AS scope_name,
           coalesce(u.limit_value, g.global_limit) AS lim, st.person AS thresholds
    FROM principals p CROSS JOIN settings st
    LEFT JOIN user_usage_limits u ON u.principal_id = p.id
    LEFT JOIN org_usage_limits g ON g.org_id = $1
    WHERE p.org_id = $1 AND p.id = ANY($2::uuid[])
    UNION ALL
    SELECT 'team', t.id, t.name, t.monthly_budget_credits, st.team
    FROM teams t CROSS JOIN settings st
    WHERE t.org_id = $1 AND t.deleted_at IS NULL AND t.monthly_budget_credits IS NOT NULL
      AND EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = t.id AND m.principal_id = ANY($2::uuid[]))
    UNION ALL
    SELECT 'organization', o.id, o.name, st.organization_budget, st.org
    FROM organizations o CROSS JOIN settings st WHERE o.id = $1 AND st.organization_budget IS NOT NULL
  ),
  s AS (
    SELECT sc.scope, sc.scope_id, sc.scope_name, sc.lim, sc.thresholds FROM scopes sc
    WHERE sc.lim IS NOT NULL AND EXISTS (
      SELECT 1 FROM unnest(sc.thresholds) AS th(t) WHERE NOT EXISTS (
        SELECT 1 FROM usage_alerts a
        WHERE a.org_id = $1 AND a.scope = sc.scope AND a.scope_id = sc.scope_id AND a.threshold = th.t AND a.period_start = $3::date))
  )`;

// The use of each open scope this period (its people's user-day rows: a team's current members,
// as its budget counts them) and an alert for every threshold it has reached; the unique key keeps
// one per scope, threshold and period. Credit units are 1/10000 credit; the comparison is exact.
// `used` is materialized: inlined, each scope's use was summed again for each of its thresholds. A
// team's use is summed member by member (the (org, user, day) index), not over the whole
// organization's month joined to the members; the organization's from its day totals (a row a day).
const evaluateSql = `
  WITH ${scopesCte},
  used AS MATERIALIZED (
    SELECT s.*, coalesce(CASE s.scope
      WHEN 'person' THEN (SELECT sum(d.credit_units) FROM analytics_user_day d
                          WHERE d.org_id = $1 AND d.user_id = s.scope_id AND d.day >= $3::date AND d.day < $5::date)
      WHEN 'team' THEN (SELECT sum(x.units) FROM team_members m CROSS JOIN LATERAL (
                          SELECT sum(d.credit_units) AS units FROM analytics_user_day d
                          WHERE d.org_id = $1 AND d.user_id = m.principal_id AND d.day >= $3::date AND d.day < $5::date) AS x
                        WHERE m.team_id = s.scope_id)
      ELSE (SELECT sum(v.credit_units) FROM analytics_day_version v WHERE v.org_id = $1 AND v.day >= $3::date AND v.day < $5::date)
    END, 0) AS units
    FROM s
  )
  INSERT INTO usage_alerts AS a (id, org_id, scope, scope_id, scope_name, threshold, period_start, limit_credits, used_credits, created_at)
  SELECT gen_random_uuid(), $1, u.scope, u.scope_id, u.scope_name, th.t, $3::date, u.lim, floor((u.units + 5000) / 10000)::bigint, $6::timestamptz
  FROM used u CROSS JOIN LATERAL unnest(u.thresholds) AS th(t)
  WHERE u.units * 100 >= th.t::numeric * u.lim::numeric * 10000
  ORDER BY u.scope, u.scope_id, th.t
  ON CONFLICT ON CONSTRAINT usage_alerts_once DO NOTHING
  RETURNING a.id, a.scope, a.scope_id, a.scope_name, a.threshold, a.period_start::text AS period_start,
            a.limit_credits::text AS limit_credits, a.used_credits::text AS used_credits, a.created_at`;

const alertColumns = `id, scope, scope_id, scope_name, threshold, period_start::text AS period_start,
  limit_credits::text AS limit_credits, used_credits::text AS used_credits, created_at`;

export const alertsStore = {
  /**
   * Takes the organization's lock of the period to the end of the transaction (see lockPeriodSql),
   * as a write: sent without waiting, it runs before the next statement, whose snapshot then sees
   * every batch that held it before.
   */
  lockPeriod(db: Transaction, orgId: string, periodStart: string): void {
    db.write(lockPeriodSql, [orgId, periodStart]);
  },

  /** The alerts the open scopes of these people have newly reached this period. */
  evaluate(db: Queryable, orgId: string, userIds: readonly string[], period: { start: string; end: string }, now: Date, defaults: readonly number[]) {
    return db.query<AlertRow>(evaluateSql, [orgId, userIds, period.start, pgArray(defaults), period.end, now]);
  },

  /** Newest first, keyset-paged by (created_at, id); `personId` keeps that person's own alerts. */
  list(db: Queryable, orgId: string, q: { personId: string | null; before: { at: Date; id: string } | null; limit: number }) {
    return db.query<AlertRow>(
      `SELECT ${alertColumns} FROM usage_alerts
       WHERE org_id = $1 AND ($2::uuid IS NULL OR (scope = 'person' AND scope_id = $2::uuid))
         AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $5`,
      [orgId, q.personId, q.before?.at ?? null, q.before?.id ?? null, q.limit],
    );
  },

  async settings(db: Queryable, orgId: string): Promise<SettingsRow | undefined> {
    const rows = await db.query<SettingsRow>(
      `SELECT person_thresholds, team_thresholds, organization_thresholds, organization_budget::text AS organization_budget
       FROM alert_settings WHERE org_id = $1`,
      [orgId],
    );
    return rows[0];
  },

  async putSettings(db: Queryable, orgId: string, s: { person: number[]; team: number[]; organization: number[]; budget: number | null }, now: Date) {
    await db.query(
      `INSERT INTO alert_settings (org_id, person_thresholds, team_thresholds, organization_thresholds, organization_budget, updated_at)
       VALUES ($1, $2::int[], $3::int[], $4::int[], $5, $6)
       ON CONFLICT (org_id) DO UPDATE SET person_thresholds = EXCLUDED.person_thresholds, team_thresholds = EXCLUDED.team_thresholds,
         organization_thresholds = EXCLUDED.organization_thresholds, organization_budget = EXCLUDED.organization_budget, updated_at = EXCLUDED.updated_at`,
      [orgId, pgArray(s.person), pgArray(s.team), pgArray(s.organization), s.budget, now],
    );
  },
};
