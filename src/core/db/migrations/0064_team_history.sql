-- Team history for analytics by team (docs/analytics.md, Analytics by team): who was in which
-- team on which UTC day, and what the team was called. The teams service writes both in the
-- transaction of each change. A membership span covers every day from first_day (the day the
-- person joined) to last_day (the day they left, or the day the team was deleted; null while
-- they still belong), both included: a person belongs to a team on a day if they were a member
-- at any moment of it. Days are the service's clock in UTC, worked out by the service, so both
-- engines agree whatever the session time zone. No foreign key to principals: the history of a
-- removed user stays with the user-day rollups it describes (which keep theirs too).
CREATE TABLE team_membership_spans (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id uuid NOT NULL,
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  principal_id uuid NOT NULL,
  joined_at timestamptz NOT NULL,
  first_day date NOT NULL,
  left_at timestamptz,
  last_day date,
  CHECK ((left_at IS NULL) = (last_day IS NULL)),
  CHECK (last_day IS NULL OR last_day >= first_day)
);
-- Reports join a user-day row to its user's spans; at most one span of a pair is open.
CREATE INDEX team_membership_spans_principal_idx ON team_membership_spans (org_id, principal_id);
CREATE UNIQUE INDEX team_membership_spans_open_key ON team_membership_spans (team_id, principal_id) WHERE left_at IS NULL;

-- A team's names: each from the day it was given (created or renamed). The name of a day is the
-- last one given on or before it (the highest id: two renames may share an instant).
CREATE TABLE team_names (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  named_at timestamptz NOT NULL,
  from_day date NOT NULL,
  name text NOT NULL
);
CREATE INDEX team_names_team_idx ON team_names (team_id);

-- Teams made before this migration: their members since they were added, their current name
-- since the team was made (earlier names were not kept), and a deleted team's members until
-- its deletion.
INSERT INTO team_membership_spans (org_id, team_id, principal_id, joined_at, first_day, left_at, last_day)
SELECT t.org_id, m.team_id, m.principal_id, m.added_at, (m.added_at AT TIME ZONE 'UTC')::date,
       t.deleted_at, (t.deleted_at AT TIME ZONE 'UTC')::date
FROM team_members m JOIN teams t ON t.id = m.team_id;
INSERT INTO team_names (team_id, named_at, from_day, name)
SELECT id, created_at, (created_at AT TIME ZONE 'UTC')::date, name FROM teams;
