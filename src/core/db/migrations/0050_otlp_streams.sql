-- The last value of each cumulative OTLP metric stream, so that a value is turned into the
-- delta since the one before it, across restarts (docs/otlp.md "Idempotency and temporality").
CREATE TABLE otlp_streams (
  org_id uuid NOT NULL,
  stream_key text NOT NULL,
  start_ns numeric(20, 0) NOT NULL,
  last_ns numeric(20, 0) NOT NULL,
  last_value double precision NOT NULL,
  PRIMARY KEY (org_id, stream_key)
);
