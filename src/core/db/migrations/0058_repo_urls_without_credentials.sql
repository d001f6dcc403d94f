-- Repository URLs were stored as sent, with any credentials in them (https://user:TOKEN@host/…,
-- a CI checkout's origin), and shown to every role. Since then core's parser leaves them out on
-- the way in (withoutCredentials in src/core/net/repo-id.ts); this does the same to the rows
-- stored before: no user information in http(s), git and file URLs, no password in ssh ones
-- (the user name stays: a clone needs it), no query or fragment, no surrounding spaces.
-- Plain regexp_replace, the same on PGlite and PostgreSQL; a temporary function, dropped below.
CREATE FUNCTION orgctl_0058_clean_url(url text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(
           regexp_replace(
             regexp_replace(btrim(url), '^((https?|git|file)://)[^/?#]*@', '\1', 'i'),
             '^((ssh|git\+ssh|ssh\+git)://[^/?#:@]*):[^/?#]*@', '\1@', 'i'),
           '^([a-z][a-z0-9+.-]*://[^?#]*)[?#].*$', '\1', 'i')
$$;

UPDATE readiness_reports SET repo_url = orgctl_0058_clean_url(repo_url)
WHERE repo_url <> orgctl_0058_clean_url(repo_url);

UPDATE ci_pull_requests SET repo_url = orgctl_0058_clean_url(repo_url)
WHERE repo_url <> orgctl_0058_clean_url(repo_url);

UPDATE computers SET repos = (
  SELECT coalesce(jsonb_agg(orgctl_0058_clean_url(e.url) ORDER BY e.n), '[]'::jsonb)
  FROM jsonb_array_elements_text(computers.repos) WITH ORDINALITY AS e(url, n)
)
WHERE repos::text ~ '[@?#]|" | "';

-- The clone step wrote each URL into its log and its error ("$ git clone URL DIR").
UPDATE computer_steps
SET log = regexp_replace(log, '((https?|git|file|ssh|git\+ssh|ssh\+git)://)[^/?#\s''"]*@', '\1', 'gi'),
    error = regexp_replace(error, '((https?|git|file|ssh|git\+ssh|ssh\+git)://)[^/?#\s''"]*@', '\1', 'gi')
WHERE step_id = 'clone-repos' AND (log ~* '://[^/?#\s]*@' OR error ~* '://[^/?#\s]*@');

DROP FUNCTION orgctl_0058_clean_url(text);
