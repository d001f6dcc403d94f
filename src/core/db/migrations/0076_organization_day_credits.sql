-- The organization's credit units of each day, the sum of its user-day rows' (kept with them in the
-- ingestion transaction, on the row every batch of the day already writes). Reads of an
-- organization's use over a period (its budget's alerts, its usage limit's allowance) then read a
-- row a day rather than a row per person and day.
ALTER TABLE analytics_day_version ADD COLUMN credit_units bigint NOT NULL DEFAULT 0;

INSERT INTO analytics_day_version (org_id, day, version, credit_units)
SELECT org_id, day, nextval('analytics_day_version_seq'), sum(credit_units)::bigint
FROM analytics_user_day GROUP BY org_id, day
ON CONFLICT (org_id, day) DO UPDATE SET credit_units = EXCLUDED.credit_units;
