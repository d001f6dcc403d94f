-- The organization's global per-user credits limit, individual overrides, and the audit log of changes.
CREATE TABLE org_usage_limits (
  org_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  global_limit bigint CHECK (global_limit >= 1000000),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_usage_limits (
  principal_id uuid PRIMARY KEY REFERENCES principals (id) ON DELETE CASCADE,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  limit_value bigint NOT NULL CHECK (limit_value >= 1000000),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_usage_limits_org_idx ON user_usage_limits (org_id);

CREATE TABLE usage_limit_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  actor_id uuid REFERENCES principals (id) ON DELETE SET NULL,
  scope text NOT NULL CHECK (scope IN ('global', 'user')),
  target_principal_id uuid REFERENCES principals (id) ON DELETE SET NULL,
  target_email text,
  old_limit bigint,
  new_limit bigint,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_limit_audit_org_idx ON usage_limit_audit (org_id, id DESC);
