-- The events and rollup tables are append-and-add fact tables written a thousand rows per batch.
-- A foreign key costs a trigger call per written row (measured: half the server time of an
-- events insert), and guards nothing here: organizations and principals are never deleted, and
-- ingestion checks every user it stores against the organization before it writes.
ALTER TABLE telemetry_events DROP CONSTRAINT telemetry_events_org_id_fkey;
ALTER TABLE telemetry_events DROP CONSTRAINT telemetry_events_user_id_fkey;
ALTER TABLE analytics_user_day DROP CONSTRAINT analytics_user_day_org_id_fkey;
ALTER TABLE analytics_user_day DROP CONSTRAINT analytics_user_day_user_id_fkey;
ALTER TABLE analytics_user_day_model DROP CONSTRAINT analytics_user_day_model_org_id_fkey;
ALTER TABLE analytics_user_day_model DROP CONSTRAINT analytics_user_day_model_user_id_fkey;
ALTER TABLE analytics_day_counter DROP CONSTRAINT analytics_day_counter_org_id_fkey;
