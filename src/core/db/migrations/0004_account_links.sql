-- A user's accounts in agent clients (an account id or uuid an OTLP exporter sends instead of an
-- email), so that an organization-wide OTLP key can attribute such records (docs/otlp.md).
CREATE TABLE account_links (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  principal_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, account_id)
);
CREATE INDEX account_links_principal_idx ON account_links (principal_id);
