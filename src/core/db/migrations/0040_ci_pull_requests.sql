-- Pull requests opened by the CI automation endpoint. For plain Git remotes this table is the
-- pull request (numbered per repository by ci_pull_request_numbers); for GitHub it records
-- the one GitHub opened.
CREATE TABLE ci_pull_requests (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  host_kind text NOT NULL CHECK (host_kind IN ('git', 'github')),
  repo_id text NOT NULL,
  repo_url text NOT NULL,
  number integer NOT NULL CHECK (number >= 1),
  url text NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'edit', 'delete')),
  workflow_path text NOT NULL,
  branch text NOT NULL,
  base_branch text NOT NULL,
  commit_sha text NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  created_by uuid REFERENCES principals (id) ON DELETE SET NULL,
  created_at bigint NOT NULL
);
-- Numbers this service gives (plain Git) are unique; GitHub's are GitHub's business (a repository
-- deleted and created again starts at 1 anew).
CREATE UNIQUE INDEX ci_pull_requests_number_key ON ci_pull_requests (org_id, repo_id, number) WHERE host_kind = 'git';
CREATE UNIQUE INDEX ci_pull_requests_branch_key ON ci_pull_requests (org_id, repo_id, branch);
CREATE INDEX ci_pull_requests_org_page_idx ON ci_pull_requests (org_id, created_at DESC, id);

CREATE TABLE ci_pull_request_numbers (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  repo_id text NOT NULL,
  last_number integer NOT NULL,
  PRIMARY KEY (org_id, repo_id)
);
