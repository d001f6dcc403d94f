-- Days stored before analytics bounded the names it keeps (analytics/bounds.ts) may hold more:
-- a guest could send thousands of tool names a day, and every report of such a day carried them.
-- This applies the rule ingestion applies now, once, to the rows stored before, with the bounds as
-- they were when it was written: per organization, day and kind, names are kept most counted
-- first, then the shortest first (then by name) while both the count and the bytes bound hold;
-- the rest are counted under '(other)' with their exact sums. A user-day keeps its models with the
-- most credits while there are at most 50 and their names take at most 2,000 bytes (the rest under
-- model '(other)', tier 'standard', every sum exact), and its first languages in order while there
-- are at most 50 and they take at most 1,000 bytes. Every day changed gets a new version, so no process serves a
-- report of it from before.

CREATE TEMPORARY TABLE orgctl_0059_bounds (kind text PRIMARY KEY, max_names int NOT NULL, max_bytes int NOT NULL);
INSERT INTO orgctl_0059_bounds VALUES
  ('tool', 200, 8000), ('mcp_server', 50, 2000), ('skill', 100, 4000), ('slash_command', 100, 4000),
  ('hook', 50, 6000), ('extension', 100, 1000), ('language', 50, 1000);

CREATE TEMPORARY TABLE orgctl_0059_excess AS
SELECT r.org_id, r.day, r.kind, r.name, r.name2, r.name3, r.count
FROM (
  SELECT c.*, row_number() OVER w AS n, sum(c.bytes) OVER w AS bytes_so_far
  FROM (
    SELECT t.*, octet_length(to_json(t.name)::text) - 2 + octet_length(to_json(t.name2)::text) - 2 + octet_length(to_json(t.name3)::text) - 2 AS bytes
    FROM analytics_day_counter t
    WHERE NOT (t.name = '(other)' AND t.name2 = '' AND t.name3 = '')
  ) AS c
  WINDOW w AS (PARTITION BY c.org_id, c.day, c.kind ORDER BY c.count DESC, c.bytes, c.name, c.name2, c.name3)
) AS r
JOIN orgctl_0059_bounds b ON b.kind = r.kind
WHERE r.n > b.max_names OR r.bytes_so_far > b.max_bytes;

DELETE FROM analytics_day_counter t USING orgctl_0059_excess e
WHERE t.org_id = e.org_id AND t.day = e.day AND t.kind = e.kind AND t.name = e.name AND t.name2 = e.name2 AND t.name3 = e.name3;

INSERT INTO analytics_day_counter AS t (org_id, day, kind, name, name2, name3, count)
SELECT org_id, day, kind, '(other)', '', '', sum(count)::bigint FROM orgctl_0059_excess GROUP BY 1, 2, 3
ON CONFLICT (org_id, day, kind, name, name2, name3) DO UPDATE SET count = t.count + EXCLUDED.count;

CREATE TEMPORARY TABLE orgctl_0059_models AS
SELECT r.* FROM (
  SELECT m.*, row_number() OVER w AS n, sum(octet_length(to_json(m.model)::text) - 2) OVER w AS bytes_so_far
  FROM analytics_user_day_model m
  WHERE m.model <> '(other)'
  WINDOW w AS (PARTITION BY m.org_id, m.day, m.user_id ORDER BY m.credit_units DESC, m.model, m.tier)
) AS r
WHERE r.n > 50 OR r.bytes_so_far > 2000;

DELETE FROM analytics_user_day_model t USING orgctl_0059_models e
WHERE t.org_id = e.org_id AND t.day = e.day AND t.user_id = e.user_id AND t.model = e.model AND t.tier = e.tier;

INSERT INTO analytics_user_day_model AS t (org_id, day, user_id, model, tier, credit_units, requests, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
SELECT org_id, day, user_id, '(other)', 'standard', sum(credit_units)::bigint, sum(requests)::bigint, sum(input_tokens)::bigint,
       sum(output_tokens)::bigint, sum(cache_read_tokens)::bigint, sum(cache_write_tokens)::bigint
FROM orgctl_0059_models GROUP BY 1, 2, 3
ON CONFLICT (org_id, day, user_id, model, tier) DO UPDATE SET
  credit_units = t.credit_units + EXCLUDED.credit_units, requests = t.requests + EXCLUDED.requests,
  input_tokens = t.input_tokens + EXCLUDED.input_tokens, output_tokens = t.output_tokens + EXCLUDED.output_tokens,
  cache_read_tokens = t.cache_read_tokens + EXCLUDED.cache_read_tokens, cache_write_tokens = t.cache_write_tokens + EXCLUDED.cache_write_tokens;

-- The primary model as ingestion ranks it (analytics/primary-model.ts), again for these user-days:
-- '(other)' may now have the most credits.
UPDATE analytics_user_day AS u SET (primary_model, primary_model_tier) = (
  SELECT x.model, x.tier FROM (
    SELECT m.model, m.tier, m.credit_units, sum(m.credit_units) OVER (PARTITION BY m.model) AS model_units
    FROM analytics_user_day_model m WHERE m.org_id = u.org_id AND m.day = u.day AND m.user_id = u.user_id
  ) AS x
  ORDER BY x.model_units DESC, x.model COLLATE "C", x.credit_units DESC, x.tier COLLATE "C" LIMIT 1
)
WHERE (u.org_id, u.day, u.user_id) IN (SELECT DISTINCT org_id, day, user_id FROM orgctl_0059_models);

CREATE TEMPORARY TABLE orgctl_0059_days AS
SELECT org_id, day FROM orgctl_0059_excess
UNION SELECT org_id, day FROM orgctl_0059_models
UNION SELECT org_id, day FROM analytics_user_day WHERE cardinality(languages) > 50 OR octet_length(to_json(languages)::text) > 1000;

UPDATE analytics_user_day SET languages = ARRAY(
  SELECT l FROM (
    SELECT l, sum(octet_length(to_json(l)::text) - 2) OVER (ORDER BY l) AS bytes
    FROM (SELECT DISTINCT l FROM unnest(languages) AS l ORDER BY l LIMIT 50) AS x
  ) AS y
  WHERE bytes <= 1000 ORDER BY l
)
WHERE cardinality(languages) > 50 OR octet_length(to_json(languages)::text) > 1000;

UPDATE analytics_day_version v SET version = nextval('analytics_day_version_seq')
FROM orgctl_0059_days d WHERE v.org_id = d.org_id AND v.day = d.day;

DROP TABLE orgctl_0059_bounds, orgctl_0059_excess, orgctl_0059_models, orgctl_0059_days;
