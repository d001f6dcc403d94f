-- Computers, their provisioning steps (durable jobs with a lease and a heartbeat) and install sessions.
CREATE TABLE computers (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('byom', 'e2b')),
  owner_kind text NOT NULL CHECK (owner_kind IN ('user', 'service_account')),
  owner_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  host_id uuid,
  hostname text,
  remote_user text,
  repos jsonb NOT NULL DEFAULT '[]',
  auto_install_deps boolean NOT NULL DEFAULT true,
  source jsonb,
  cloned_repo_directories jsonb,
  sandbox_id text,
  agent_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX computers_org_name_key ON computers (org_id, name);
CREATE INDEX computers_org_host_idx ON computers (org_id, host_id);

CREATE TABLE computer_steps (
  computer_id uuid NOT NULL REFERENCES computers (id) ON DELETE CASCADE,
  step_id text NOT NULL,
  position integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'skipped')),
  error text,
  started_at timestamptz,
  completed_at timestamptz,
  install_session_id uuid,
  attempts integer NOT NULL DEFAULT 0,
  -- The executor holding the step (an engine claim or a host agent's claim token); NULL while queued.
  lease_owner text,
  lease_expires_at timestamptz,
  heartbeat_at timestamptz,
  log text NOT NULL DEFAULT '',
  PRIMARY KEY (computer_id, step_id)
);
CREATE INDEX computer_steps_running_idx ON computer_steps (lease_expires_at) WHERE status = 'running';

CREATE TABLE install_sessions (
  id uuid PRIMARY KEY,
  computer_id uuid NOT NULL REFERENCES computers (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  exit_code integer,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  ended_at timestamptz,
  log text NOT NULL DEFAULT '',
  log_truncated boolean NOT NULL DEFAULT false
);
-- The database, not the application, keeps one running install session per computer.
CREATE UNIQUE INDEX install_sessions_one_running_key ON install_sessions (computer_id) WHERE status = 'running';
CREATE INDEX install_sessions_computer_idx ON install_sessions (computer_id, created_at);
