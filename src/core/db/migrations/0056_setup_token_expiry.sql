-- A setup token lasts 24 hours, and each start of `orgctl serve` replaces the tokens printed
-- before. Tokens issued before this migration had no expiry: they go, and the next start
-- prints a new one.
DELETE FROM setup_tokens;
ALTER TABLE setup_tokens ADD COLUMN expires_at timestamptz NOT NULL;
