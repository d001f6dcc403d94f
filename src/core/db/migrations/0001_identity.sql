-- Organizations, their principals (users and service accounts) and API keys.
CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE principals (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('user', 'service_account')),
  email text,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'member', 'guest')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'user') = (email IS NOT NULL)),
  CHECK (kind = 'user' OR role IN ('manager', 'member'))
);
CREATE UNIQUE INDEX principals_org_email_key ON principals (org_id, email) WHERE email IS NOT NULL;
CREATE INDEX principals_org_idx ON principals (org_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  principal_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  name text NOT NULL,
  secret_hash text NOT NULL,
  display_prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES principals (id) ON DELETE SET NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX api_keys_secret_hash_key ON api_keys (secret_hash);
CREATE INDEX api_keys_principal_idx ON api_keys (principal_id);
