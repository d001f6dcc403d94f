-- Records that come in groups are counted once through their group's row, which holds the keys
-- of the group's records seen so far (24 bytes each, the keys otlp_seen would hold one row
-- apiece): the delta data points of one metric with the same resource, scope, start and time
-- (what one collection of an OpenTelemetry SDK exports), and the log events of one Claude Code
-- session in one minute. An export of 500 such records writes a row or two, not 500
-- (docs/otlp.md "Idempotency and temporality").
CREATE TABLE otlp_seen_groups (
  org_id uuid NOT NULL,
  grp bytea NOT NULL,
  keys bytea NOT NULL,
  PRIMARY KEY (org_id, grp)
);

-- Hashes do not compress: stored without trying.
ALTER TABLE otlp_seen_groups ALTER COLUMN keys SET STORAGE EXTERNAL;

-- Records counted before this migration have their keys in otlp_seen, one row each. In the
-- organizations that have keys there, records older than an hour from now are looked up there
-- too (an exporter's clock may run ahead of the server's), so a retry across the upgrade still
-- counts once.
CREATE TABLE otlp_seen_groups_before (
  org_id uuid PRIMARY KEY,
  until_ms bigint NOT NULL
);

INSERT INTO otlp_seen_groups_before (org_id, until_ms)
SELECT DISTINCT org_id, (extract(epoch FROM now()) * 1000)::bigint + 3600000 FROM otlp_seen;
