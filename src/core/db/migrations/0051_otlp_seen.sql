-- The records OTLP has counted, one row per log record, span, delta data point or cumulative step
-- (and per Droid session): their id hash (docs/otlp.md "Idempotency and temporality"), the 24
-- bytes the `otlp:` ids encode in base64url. OTLP stores no event rows; a retried export finds
-- its keys here and counts nothing again.
CREATE TABLE otlp_seen (
  org_id uuid NOT NULL,
  key bytea NOT NULL,
  PRIMARY KEY (org_id, key)
);

-- Exports stored before this table were stored as events whose ids are `otlp:<key>` or
-- `otlp:<key>#<n>`: their keys are seen already, so a retry after the upgrade counts once.
INSERT INTO otlp_seen (org_id, key)
SELECT DISTINCT org_id, decode(translate(substr(event_id, 6, 32), '-_', '+/'), 'base64')
FROM telemetry_events
WHERE event_id ~ '^otlp:[A-Za-z0-9_-]{32}(#|$)'
ON CONFLICT DO NOTHING;
