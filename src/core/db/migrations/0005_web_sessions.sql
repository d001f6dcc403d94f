-- Web sign-in: a user's password (Argon2id, PHC string), their browser sessions, the one-time
-- first-run setup token, invitations, and the attempt counters that limit sign-in guessing.
ALTER TABLE principals ADD COLUMN password_hash text;

-- Only the SHA-256 of a session token is stored. `role` is the user's role at sign-in: a session
-- counts only while the user still has it, so a role change made anywhere (API, CLI, another
-- process) ends the user's sessions at once.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  principal_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  user_agent text
);
CREATE INDEX sessions_principal_idx ON sessions (principal_id);

CREATE TABLE setup_tokens (
  token_hash text PRIMARY KEY,
  principal_id uuid NOT NULL REFERENCES principals (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'member', 'guest')),
  token_hash text NOT NULL UNIQUE,
  created_by uuid REFERENCES principals (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz
);
CREATE INDEX invitations_org_idx ON invitations (org_id);

-- Fixed-window counters of sign-in, setup and invitation attempts, per address and per account.
CREATE TABLE attempt_windows (
  key text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
