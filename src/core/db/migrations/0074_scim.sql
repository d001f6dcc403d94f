-- SCIM 2.0 provisioning (docs/scim.md). An organization's SCIM bearer tokens: only the SHA-256 of
-- a token is stored, as for API keys; a revoked token keeps its row so the list can show it.
CREATE TABLE scim_tokens (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  secret_hash text NOT NULL,
  display_prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES principals (id) ON DELETE SET NULL,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX scim_tokens_secret_hash_key ON scim_tokens (secret_hash);
CREATE INDEX scim_tokens_org_idx ON scim_tokens (org_id, created_at);

-- What SCIM knows of a user beyond their principal row. The id is the principal's id, and there is
-- no foreign key to principals on purpose: a deactivated user's principal is removed (keys and
-- sessions with it) while this row remains, so the identity provider can still read the user as
-- `active: false` and reactivate them under the same id, which keeps their analytics history one.
CREATE TABLE scim_users (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_name text NOT NULL,
  external_id text,
  given_name text,
  family_name text,
  display_name text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- Not unique: the email is unique among principals, and a user who changes their own email in
-- orgctl leaves an older user_name here, which must not hold the email against someone else.
CREATE INDEX scim_users_org_user_name_idx ON scim_users (org_id, user_name);
CREATE INDEX scim_users_org_external_idx ON scim_users (org_id, external_id);

-- A team that SCIM created is renamed only by SCIM: managed_by says who owns its name.
ALTER TABLE teams ADD COLUMN managed_by text CHECK (managed_by IN ('scim'));

-- The identity provider's id of a SCIM group (a team) and the version of its SCIM resource.
CREATE TABLE scim_groups (
  team_id uuid PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  external_id text,
  version integer NOT NULL DEFAULT 1
);
CREATE INDEX scim_groups_org_idx ON scim_groups (org_id);
