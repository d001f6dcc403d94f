-- The states of cumulative streams, packed by set: the streams of one metric with one resource
-- and scope (what one OpenTelemetry SDK exports of a metric at each collection) share a row,
-- 48 bytes a stream (its key's 24 bytes, start and last time, last value). An export of 500
-- streams then reads and writes one row instead of 500, which took most of the database's time
-- for a cumulative export (docs/otlp.md "Idempotency and temporality").
CREATE TABLE otlp_stream_sets (
  org_id uuid NOT NULL,
  set_key bytea NOT NULL,
  states bytea NOT NULL,
  PRIMARY KEY (org_id, set_key)
);

-- Mostly hashes, which do not compress: stored without trying.
ALTER TABLE otlp_stream_sets ALTER COLUMN states SET STORAGE EXTERNAL;

-- otlp_streams keeps the streams counted before this migration, one row each. A stream not yet
-- in its set is looked up there until its set takes it; nothing writes it any more.
