-- Fair delivery and retention of webhooks (docs/webhooks.md). The queue is claimed endpoint by
-- endpoint: a skip scan over the pending deliveries' endpoints, then each endpoint's oldest due
-- ones, so one endpoint's backlog costs a claim the share it may take, not its length. The
-- due-time index this replaces served only the oldest-first claim.
DROP INDEX webhook_deliveries_due_idx;
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';

-- Pruning: finished deliveries by when they were last tried, events by age once no delivery is left.
CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (status, last_attempt_at) WHERE status <> 'pending';
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);
