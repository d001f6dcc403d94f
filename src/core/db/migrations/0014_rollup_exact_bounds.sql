-- Token sums are read as JavaScript numbers, exact up to 2^53 - 1. A user-day (and its model
-- rows) may not pass that: ingestion refuses the batch that would (400, nothing stored) instead
-- of keeping a sum it could no longer report exactly. Credit units are bounded by bigint itself.
ALTER TABLE analytics_user_day ADD CONSTRAINT analytics_user_day_tokens_exact CHECK (
  input_tokens <= 9007199254740991 AND output_tokens <= 9007199254740991
  AND cache_read_tokens <= 9007199254740991 AND cache_write_tokens <= 9007199254740991
);
ALTER TABLE analytics_user_day_model ADD CONSTRAINT analytics_user_day_model_tokens_exact CHECK (
  input_tokens <= 9007199254740991 AND output_tokens <= 9007199254740991
  AND cache_read_tokens <= 9007199254740991 AND cache_write_tokens <= 9007199254740991
);
