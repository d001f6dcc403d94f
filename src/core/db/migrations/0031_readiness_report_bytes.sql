-- The size of each stored report's maps, so a page of the list can be bounded by bytes as well
-- as by count (a page of a hundred large reports would otherwise take a server's memory).
ALTER TABLE readiness_reports ADD COLUMN body_bytes integer NOT NULL DEFAULT 0;
UPDATE readiness_reports SET body_bytes = octet_length(apps::text) + octet_length(report::text);
