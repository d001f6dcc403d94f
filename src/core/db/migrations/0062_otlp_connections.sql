-- When each person's records last arrived from each agent client over OTLP (`orgctl connect
-- --status`, docs/connect.md): a row per user and client (claude-code, codex, gemini-cli, droid,
-- from the resource's service.name), moved forward by an export attributed to them, at most
-- once a minute (the upsert skips a row that is newer), so a busy client costs no row churn.
CREATE TABLE otlp_connections (
  user_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  client text NOT NULL,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  last_export_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, client)
);
