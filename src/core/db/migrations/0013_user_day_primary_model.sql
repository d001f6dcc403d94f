-- The primary model of a user-day is kept on its row by ingestion (analytics/primary-model.ts,
-- whose ranking this repeats for the rows already stored), so /users reads it instead of ranking
-- a year of model rows per request.
ALTER TABLE analytics_user_day ADD COLUMN primary_model text, ADD COLUMN primary_model_tier text;
UPDATE analytics_user_day AS u SET (primary_model, primary_model_tier) = (
  SELECT x.model, x.tier FROM (
    SELECT m.model, m.tier, m.credit_units, sum(m.credit_units) OVER (PARTITION BY m.model) AS model_units
    FROM analytics_user_day_model m WHERE m.org_id = u.org_id AND m.day = u.day AND m.user_id = u.user_id
  ) AS x
  ORDER BY x.model_units DESC, x.model COLLATE "C", x.credit_units DESC, x.tier COLLATE "C" LIMIT 1
);
-- It served the per-request ranking of model rows by user, which is gone.
DROP INDEX analytics_user_day_model_user_idx;
