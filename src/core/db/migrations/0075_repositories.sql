-- Analytics by repository (docs/analytics.md, Repositories; contract §19). A session's repository
-- comes from the best source heard of so far (rank 1 the SessionStart record of `orgctl connect`,
-- 2 OTel vcs.* attributes on a record, 3 on its resource, 4 a native event's repository); a
-- better source replaces a worse one, an equal or worse one changes nothing. repo_id is core's
-- canonical repository id, the one readiness reports carry.
CREATE TABLE analytics_session_repo (
  org_id uuid NOT NULL,
  user_id uuid NOT NULL,
  session_id text NOT NULL,
  repo_id text NOT NULL,
  repo_url text NOT NULL,
  branch text,
  commit_hash text,
  rank smallint NOT NULL CHECK (rank BETWEEN 1 AND 4),
  PRIMARY KEY (org_id, user_id, session_id)
);

-- What each session did on each UTC day, so that a session's usage can be moved, whole and once,
-- to the repository its attribution names when that attribution arrives after the usage.
-- Written in the ingestion transaction, like every rollup.
CREATE TABLE analytics_session_day (
  org_id uuid NOT NULL,
  user_id uuid NOT NULL,
  session_id text NOT NULL,
  day date NOT NULL,
  events bigint NOT NULL DEFAULT 0,
  sessions bigint NOT NULL DEFAULT 0,
  credit_units bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_tokens bigint NOT NULL DEFAULT 0,
  tool_calls bigint NOT NULL DEFAULT 0,
  tool_errors bigint NOT NULL DEFAULT 0,
  git_commits bigint NOT NULL DEFAULT 0,
  git_prs_created bigint NOT NULL DEFAULT 0,
  git_prs_merged bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, user_id, session_id, day)
);

-- The repository reports' rollup: the sums of the session-days of each repository's sessions, per
-- day and person (a person is active in a repository on a day when events > 0 there). A report
-- reads the days asked for, whatever the number of events or sessions behind them.
CREATE TABLE analytics_repo_day (
  org_id uuid NOT NULL,
  day date NOT NULL,
  repo_id text NOT NULL,
  user_id uuid NOT NULL,
  events bigint NOT NULL DEFAULT 0,
  sessions bigint NOT NULL DEFAULT 0,
  credit_units bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_tokens bigint NOT NULL DEFAULT 0,
  tool_calls bigint NOT NULL DEFAULT 0,
  tool_errors bigint NOT NULL DEFAULT 0,
  git_commits bigint NOT NULL DEFAULT 0,
  git_prs_created bigint NOT NULL DEFAULT 0,
  git_prs_merged bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day, repo_id, user_id)
);
