-- The organization's enforcement policy (docs/usage-limits.md, Enforcement): what the client-side hook
-- does as a user nears or reaches their limit. No row means the defaults, which the service holds
-- (block, [80, 95], open), so existing organizations need no backfill and a changed default
-- reaches every organization that never chose.
CREATE TABLE org_usage_enforcement (
  org_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  mode text NOT NULL CHECK (mode IN ('off', 'warn', 'block')),
  thresholds integer[] NOT NULL,
  unreachable text NOT NULL CHECK (unreachable IN ('open', 'closed')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A change of the policy is audited beside the limits' changes: scope 'policy', the whole policy
-- before and after as JSON (the defaults written out when there was no row), null for limit entries.
ALTER TABLE usage_limit_audit DROP CONSTRAINT usage_limit_audit_scope_check;
ALTER TABLE usage_limit_audit ADD CONSTRAINT usage_limit_audit_scope_check CHECK (scope IN ('global', 'user', 'policy'));
ALTER TABLE usage_limit_audit ADD COLUMN old_policy jsonb, ADD COLUMN new_policy jsonb;
