-- A change of a team's monthly budget (docs/teams.md, Team budgets) is audited beside the limits'
-- changes: scope 'team', the team's id and its name at the time (a later rename or deletion does
-- not rewrite the history), the old and new budget in old_limit and new_limit.
ALTER TABLE usage_limit_audit DROP CONSTRAINT usage_limit_audit_scope_check;
ALTER TABLE usage_limit_audit ADD CONSTRAINT usage_limit_audit_scope_check CHECK (scope IN ('global', 'user', 'policy', 'team'));
ALTER TABLE usage_limit_audit ADD COLUMN target_team_id uuid REFERENCES teams (id) ON DELETE SET NULL, ADD COLUMN target_team_name text;
