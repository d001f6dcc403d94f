-- Readiness (maturity level) reports of an organization's repositories.
-- created_at is epoch milliseconds, exactly what clients see, so the keyset cursor
-- (created_at, report_id) compares the same values the client pages by.
CREATE TABLE readiness_reports (
  report_id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at bigint NOT NULL,
  repo_id text NOT NULL,
  repo_url text NOT NULL,
  apps json NOT NULL,
  report json NOT NULL,
  commit_hash text,
  branch text,
  has_local_changes boolean,
  has_non_remote_commits boolean,
  model_id text,
  model_reasoning_effort text CHECK (model_reasoning_effort IN ('low', 'medium', 'high', 'off')),
  droid_version text,
  uploaded_by uuid REFERENCES principals (id) ON DELETE SET NULL
);
CREATE INDEX readiness_reports_org_page_idx ON readiness_reports (org_id, created_at DESC, report_id);
CREATE INDEX readiness_reports_org_repo_page_idx ON readiness_reports (org_id, repo_id, created_at DESC, report_id);
