/**
 * A user-day's primary model, as a subquery over analytics_user_day_model for the
 * user-day row aliased `u` (its day and user_id; the organization is $1): the model with the most
 * credits over its tiers (ties: the smallest id), and its tier with the most credits (ties: the
 * smallest name). Ingestion keeps it on the user-day row (rollup-store.ts); migration 0013 filled
 * it in for older rows.
 */
export const PRIMARY_MODEL_OF = (u: string): string => `
  SELECT x.model, x.tier FROM (
    SELECT m.model, m.tier, m.credit_units, sum(m.credit_units) OVER (PARTITION BY m.model) AS model_units
    FROM analytics_user_day_model m WHERE m.org_id = $1::uuid AND m.day = ${u}.day AND m.user_id = ${u}.user_id
  ) AS x
  ORDER BY x.model_units DESC, x.model COLLATE "C", x.credit_units DESC, x.tier COLLATE "C" LIMIT 1`;
