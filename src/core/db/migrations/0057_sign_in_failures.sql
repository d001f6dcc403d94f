-- Recent failed sign-ins per account and per address (docs/identity-and-access.md, "Guessing
-- passwords"). An attempt counts here before its password is checked, in one statement, so
-- concurrent guesses each see their own count; a correct password takes it back. Times are Unix
-- milliseconds by the service's clock, which also decides how long the next attempt must wait.
CREATE TABLE sign_in_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at bigint NOT NULL
);
CREATE INDEX sign_in_failures_last_idx ON sign_in_failures (last_failure_at);
