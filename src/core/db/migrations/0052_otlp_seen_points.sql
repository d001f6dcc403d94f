-- Delta data points are counted once through their collection: the points of one metric with the
-- same resource, scope, start and time (what one collection of an OpenTelemetry SDK exports)
-- share a row, which holds the keys of those points seen so far (24 bytes each, the keys
-- otlp_seen held for them one row apiece), so an export of 500 points writes one row, not 500
-- (docs/otlp.md "Idempotency and temporality").
CREATE TABLE otlp_seen_points (
  org_id uuid NOT NULL,
  collection bytea NOT NULL,
  keys bytea NOT NULL,
  PRIMARY KEY (org_id, collection)
);

-- Hashes do not compress: stored without trying.
ALTER TABLE otlp_seen_points ALTER COLUMN keys SET STORAGE EXTERNAL;

-- Delta points counted before this migration have their keys in otlp_seen, one row each. In the
-- organizations that have keys there, points older than an hour from now are looked up there
-- too (an exporter's clock may run ahead of the server's), so a retry across the upgrade still
-- counts once.
CREATE TABLE otlp_seen_points_before (
  org_id uuid PRIMARY KEY,
  until_ms bigint NOT NULL
);

INSERT INTO otlp_seen_points_before (org_id, until_ms)
SELECT DISTINCT org_id, (extract(epoch FROM now()) * 1000)::bigint + 3600000 FROM otlp_seen;
