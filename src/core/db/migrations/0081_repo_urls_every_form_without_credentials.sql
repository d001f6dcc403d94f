-- Migration 0058 took the credentials out of stored URLs with a scheme; scp-like and bare ones
-- (TOKEN@host:o/r, user:TOKEN@host:o/r, git@host:o/r?token=…, host/o/r?token=…) were kept as
-- sent, and their query stayed in the repository id too. Since then core's parser cleans every
-- form on the way in (withoutCredentials in src/core/net/repo-id.ts); this does the same to the
-- rows stored before: no user information but the ssh login `git`, no query or fragment, and
-- repository ids without a query or fragment (a rollup row moved to the clean id adds into it).
-- Plain regexp_replace, the same on PGlite and PostgreSQL; temporary functions, dropped below.
CREATE FUNCTION orgctl_0081_clean_url(url text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN u ~* '^[a-z][a-z0-9+.-]*://' THEN regexp_replace(u, '^((ssh|git\+ssh|ssh\+git)://)(?!git@)[^/?#@]*@', '\1', 'i')
    WHEN split_part(substring(v FROM '^([^/]*)@'), ':', 1) = 'git' THEN regexp_replace(v, '^[^/]*@', 'git@')
    ELSE regexp_replace(v, '^[^/]*@', '')
  END
  FROM (SELECT btrim(url) AS u, regexp_replace(btrim(url), '[?#].*$', '') AS v) AS x
$$;

CREATE FUNCTION orgctl_0081_clean_id(id text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(id, '[?#].*$', ''), '/+$', ''), '\.git$', ''), '/+$', '')
$$;

UPDATE readiness_reports SET repo_url = orgctl_0081_clean_url(repo_url), repo_id = orgctl_0081_clean_id(repo_id)
WHERE repo_url <> orgctl_0081_clean_url(repo_url) OR repo_id <> orgctl_0081_clean_id(repo_id);

UPDATE ci_pull_requests SET repo_url = orgctl_0081_clean_url(repo_url), repo_id = orgctl_0081_clean_id(repo_id)
WHERE repo_url <> orgctl_0081_clean_url(repo_url) OR repo_id <> orgctl_0081_clean_id(repo_id);

UPDATE analytics_session_repo SET repo_url = orgctl_0081_clean_url(repo_url), repo_id = orgctl_0081_clean_id(repo_id)
WHERE repo_url <> orgctl_0081_clean_url(repo_url) OR repo_id <> orgctl_0081_clean_id(repo_id);

INSERT INTO analytics_repo_day AS t (org_id, day, repo_id, user_id, events, sessions, credit_units, input_tokens, output_tokens,
  cache_read_tokens, cache_write_tokens, tool_calls, tool_errors, git_commits, git_prs_created, git_prs_merged)
SELECT org_id, day, orgctl_0081_clean_id(repo_id), user_id, sum(events), sum(sessions), sum(credit_units), sum(input_tokens),
  sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(tool_calls), sum(tool_errors), sum(git_commits),
  sum(git_prs_created), sum(git_prs_merged)
FROM analytics_repo_day WHERE repo_id ~ '[?#]'
GROUP BY org_id, day, orgctl_0081_clean_id(repo_id), user_id
ON CONFLICT (org_id, day, repo_id, user_id) DO UPDATE SET
  events = t.events + EXCLUDED.events, sessions = t.sessions + EXCLUDED.sessions, credit_units = t.credit_units + EXCLUDED.credit_units,
  input_tokens = t.input_tokens + EXCLUDED.input_tokens, output_tokens = t.output_tokens + EXCLUDED.output_tokens,
  cache_read_tokens = t.cache_read_tokens + EXCLUDED.cache_read_tokens, cache_write_tokens = t.cache_write_tokens + EXCLUDED.cache_write_tokens,
  tool_calls = t.tool_calls + EXCLUDED.tool_calls, tool_errors = t.tool_errors + EXCLUDED.tool_errors,
  git_commits = t.git_commits + EXCLUDED.git_commits, git_prs_created = t.git_prs_created + EXCLUDED.git_prs_created,
  git_prs_merged = t.git_prs_merged + EXCLUDED.git_prs_merged;
DELETE FROM analytics_repo_day WHERE repo_id ~ '[?#]';

-- The clone step wrote each URL, as then kept, into its log and its error ("$ git clone URL DIR"):
-- each changed URL replaced in turn (a joined UPDATE would change a row once, whatever its repos).
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.id, e.url FROM computers c, jsonb_array_elements_text(c.repos) AS e(url) WHERE e.url <> orgctl_0081_clean_url(e.url) LOOP
    UPDATE computer_steps
    SET log = replace(log, r.url, orgctl_0081_clean_url(r.url)), error = replace(error, r.url, orgctl_0081_clean_url(r.url))
    WHERE computer_id = r.id AND step_id = 'clone-repos';
  END LOOP;
END
$$;

UPDATE computers SET repos = (
  SELECT coalesce(jsonb_agg(orgctl_0081_clean_url(e.url) ORDER BY e.n), '[]'::jsonb)
  FROM jsonb_array_elements_text(computers.repos) WITH ORDINALITY AS e(url, n)
)
WHERE repos::text ~ '[@?#]';

-- Events kept as sent, and sent again on a retry: their repoUrl, in the same bytes around it.
UPDATE webhook_events SET body = replace(
  body,
  '"repoUrl":' || to_json(body::jsonb -> 'data' ->> 'repoUrl')::text,
  '"repoUrl":' || to_json(orgctl_0081_clean_url(body::jsonb -> 'data' ->> 'repoUrl'))::text
)
WHERE type IN ('readiness.report_created', 'ci.pull_request_opened')
  AND body::jsonb -> 'data' ->> 'repoUrl' <> orgctl_0081_clean_url(body::jsonb -> 'data' ->> 'repoUrl');

DROP FUNCTION orgctl_0081_clean_id(text);
DROP FUNCTION orgctl_0081_clean_url(text);
