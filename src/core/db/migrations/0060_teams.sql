-- Teams (docs/teams.md): named groups of an organization's users; a user may be in several.
-- A deleted team keeps its row, its name and its members (deleted_at set), so analytics can still
-- show its history under the name it had; only teams not deleted hold a name, so a new team may
-- take a deleted one's. Names are unique without regard to case: name_key is the name folded by
-- the service (NFC, lower case), because lower() in SQL folds by the database's locale and the
-- two engines' locales differ. Times are the service's clock. The monthly budget (at least
-- 1,000,000 credits, like limits) is for team budgets, which come later; the column is here so
-- they need no migration.
CREATE TABLE teams (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  name_key text NOT NULL,
  monthly_budget_credits bigint CHECK (monthly_budget_credits >= 1000000),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_org_name_key ON teams (org_id, name_key) WHERE deleted_at IS NULL;
CREATE INDEX teams_org_idx ON teams (org_id, created_at);

-- A removed user leaves every team with their principal row (the cascade).
CREATE TABLE team_members (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  principal_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, principal_id)
);
CREATE INDEX team_members_principal_idx ON team_members (principal_id);
