-- OpenID Connect single sign-on (docs/sso.md). One configuration per organization; its client
-- secret is stored for the token requests and never leaves the service in an answer or a log.
-- role_mapping and team_mapping are JSON objects: group name -> role, group name -> team id.
CREATE TABLE sso_configs (
  org_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret text NOT NULL,
  groups_claim text NOT NULL,
  role_mapping jsonb NOT NULL DEFAULT '{}',
  team_mapping jsonb NOT NULL DEFAULT '{}',
  required boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- "Sign in with SSO" finds the organization by the email's domain, so a domain belongs to one
-- organization at most (lower-cased by the service).
CREATE TABLE sso_domains (
  domain text PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES sso_configs (org_id) ON DELETE CASCADE
);
CREATE INDEX sso_domains_org_idx ON sso_domains (org_id);

-- A sign-in under way: the browser holds the random token whose hash keys the row (a cookie), and
-- the row holds what the callback must check (state, nonce) and prove (the PKCE verifier). Used once.
CREATE TABLE sso_flows (
  token_hash text PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_flows_expiry_idx ON sso_flows (expires_at);

-- Sign-in events owners read: successes, failures with their reason, just-in-time creations, role
-- and team changes made by the mapping, and owners' password sign-ins while SSO is required.
CREATE TABLE sso_events (
  id uuid PRIMARY KEY,
  -- Orders events of the same instant (the clock's millisecond) as they happened; the list's cursor.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'sign_in_failed', 'user_created', 'role_changed', 'teams_changed', 'break_glass')),
  email text,
  principal_id uuid REFERENCES principals (id) ON DELETE SET NULL,
  reason text,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX sso_events_org_seq_idx ON sso_events (org_id, seq DESC);
