-- /users reads the model rows of one page of users (their primary models) by user, not by day.
CREATE INDEX analytics_user_day_model_user_idx ON analytics_user_day_model (org_id, user_id, day);

-- A new version of a day each time ingestion changes its rollups. A reader may keep what it built
-- from a day's rollups for as long as the day keeps its version (analytics/day-cache.ts).
CREATE SEQUENCE analytics_day_version_seq;
CREATE TABLE analytics_day_version (
  org_id uuid NOT NULL,
  day date NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (org_id, day)
);
