-- An export moves each of its cumulative streams to its latest point in one upsert, which also
-- creates the streams seen for the first time and locks each row to the end of the transaction.
-- Its RETURNING can show only the new row, so the row keeps the state it replaced as well: the
-- export reads it back and works out each point's delta from it. This replaces an insert, a
-- locking read and an update per stream (docs/otlp.md "Performance").
ALTER TABLE otlp_streams
  ADD COLUMN prev_start_ns numeric(20, 0) NOT NULL DEFAULT 0,
  ADD COLUMN prev_last_ns numeric(20, 0) NOT NULL DEFAULT 0,
  ADD COLUMN prev_last_value double precision NOT NULL DEFAULT 0;
