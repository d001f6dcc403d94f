-- An organization's plan sets its request rates (docs/rate-limits.md). A self-hosted
-- installation starts on the largest; `orgctl orgs set-plan` changes it.
ALTER TABLE organizations ADD COLUMN plan text NOT NULL DEFAULT 'enterprise' CHECK (plan IN ('free', 'team', 'enterprise'));

-- Request counts per key and fixed window, shared by every `orgctl serve` on one PostgreSQL.
CREATE TABLE rate_limit_windows (
  key text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
