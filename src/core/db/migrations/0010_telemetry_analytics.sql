-- Telemetry events (the idempotency record and the raw history) and the exact rollups that
-- analytics reads. Both are written in the same transaction by the ingestion of a batch.
CREATE TABLE telemetry_events (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  session_id text NOT NULL,
  client text NOT NULL,
  attrs jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, event_id)
);

-- One row per user per UTC day on which the user sent any event. Credits are kept in
-- 1/10000 of a Standard Credit (multiplier in thousandths x tokens in tenths), so sums stay exact.
CREATE TABLE analytics_user_day (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  day date NOT NULL,
  user_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  events bigint NOT NULL DEFAULT 0,
  events_terminal_ui bigint NOT NULL DEFAULT 0,
  events_web bigint NOT NULL DEFAULT 0,
  events_non_interactive_cli bigint NOT NULL DEFAULT 0,
  sessions bigint NOT NULL DEFAULT 0,
  sessions_auto_high bigint NOT NULL DEFAULT 0,
  sessions_auto_medium bigint NOT NULL DEFAULT 0,
  sessions_auto_low bigint NOT NULL DEFAULT 0,
  sessions_spec bigint NOT NULL DEFAULT 0,
  sessions_manual bigint NOT NULL DEFAULT 0,
  last_session_at timestamptz,
  last_session_level text,
  messages bigint NOT NULL DEFAULT 0,
  user_messages bigint NOT NULL DEFAULT 0,
  tool_calls bigint NOT NULL DEFAULT 0,
  tools_auto_high bigint NOT NULL DEFAULT 0,
  tools_auto_medium bigint NOT NULL DEFAULT 0,
  tools_auto_low bigint NOT NULL DEFAULT 0,
  tools_manual bigint NOT NULL DEFAULT 0,
  mcp_calls bigint NOT NULL DEFAULT 0,
  skill_calls bigint NOT NULL DEFAULT 0,
  slash_commands bigint NOT NULL DEFAULT 0,
  hooks bigint NOT NULL DEFAULT 0,
  files_created bigint NOT NULL DEFAULT 0,
  files_edited bigint NOT NULL DEFAULT 0,
  git_commits bigint NOT NULL DEFAULT 0,
  git_prs_created bigint NOT NULL DEFAULT 0,
  credit_units bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_tokens bigint NOT NULL DEFAULT 0,
  languages text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (org_id, day, user_id)
);
-- /users pages by user, and the delegation level falls back to a user's latest earlier session.
CREATE INDEX analytics_user_day_user_idx ON analytics_user_day (org_id, user_id, day);

-- Model usage per user, day, model and reported tier.
CREATE TABLE analytics_user_day_model (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  day date NOT NULL,
  user_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  model text NOT NULL,
  tier text NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  credit_units bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cache_write_tokens bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day, user_id, model, tier)
);

-- Named counters per organization and day: kind is tool, mcp_server, skill, slash_command,
-- hook (name = event, name2 = matcher, name3 = command), extension or language.
CREATE TABLE analytics_day_counter (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL,
  name text NOT NULL,
  name2 text NOT NULL DEFAULT '',
  name3 text NOT NULL DEFAULT '',
  count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day, kind, name, name2, name3)
);
