-- Each export of a cumulative stream updates its row: half of each page is left free so that the
-- new version fits beside the old one (a HOT update, without a new index entry), which cut the
-- database's time per stream update by about a fifth (docs/otlp.md "Performance"). Pages
-- written from now on keep the room; existing ones gain it as they are rewritten.
ALTER TABLE otlp_streams SET (fillfactor = 50);
