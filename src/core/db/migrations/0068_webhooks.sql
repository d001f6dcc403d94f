-- Outbound webhooks (docs/webhooks.md): endpoints per organization, the events they are sent, and a
-- delivery per event and endpoint, which is a job of the database queue (a lease, claimed with
-- FOR UPDATE SKIP LOCKED, as computers' steps are), so deliveries survive restarts and are shared
-- by every `orgctl serve` process. The secret is kept as it is: the service signs with it.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[] NOT NULL,
  format text NOT NULL CHECK (format IN ('standard', 'slack')),
  secret text NOT NULL,
  created_by uuid REFERENCES principals (id) ON DELETE SET NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- The first failure since the last success: a day of failures disables the endpoint.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints (org_id, created_at);

-- An event, with its body as sent (serialized once, so every attempt signs the same bytes).
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_owner text,
  lease_expires_at timestamptz,
  last_status_code integer,
  last_error text,
  last_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT webhook_deliveries_once UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

-- The delivery log: one row per attempt.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
