-- Usage alerts (docs/alerts.md): an organization's thresholds per kind of scope, in percent of the
-- budget that applies (a person's limit, a team's monthly budget, the organization's monthly
-- budget kept here), and the alerts themselves. No settings row means the defaults (50, 80, 100;
-- no organization budget), held by the service.
CREATE TABLE alert_settings (
  org_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  person_thresholds integer[] NOT NULL,
  team_thresholds integer[] NOT NULL,
  organization_thresholds integer[] NOT NULL,
  organization_budget bigint CHECK (organization_budget >= 1000000),
  updated_at timestamptz NOT NULL
);

-- One alert per scope, threshold and period: the unique key is what makes a crossing alert exactly
-- once, whichever of several concurrent ingestion transactions sees it first. An alert is written in
-- the transaction of the usage that crossed the threshold, and is itself the outbox row of the
-- usage.threshold_crossed webhook event written beside it. scope_id is the person's or team's id,
-- or the organization's own id; scope_name is the email or team name at the time.
CREATE TABLE usage_alerts (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope IN ('organization', 'team', 'person')),
  scope_id uuid NOT NULL,
  scope_name text NOT NULL,
  threshold integer NOT NULL,
  period_start date NOT NULL,
  limit_credits bigint NOT NULL,
  used_credits bigint NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT usage_alerts_once UNIQUE (org_id, scope, scope_id, threshold, period_start)
);
CREATE INDEX usage_alerts_org_idx ON usage_alerts (org_id, created_at DESC, id);
CREATE INDEX usage_alerts_person_idx ON usage_alerts (org_id, scope_id, created_at DESC) WHERE scope = 'person';
