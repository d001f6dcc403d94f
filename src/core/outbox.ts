/**
 * Where an area tells of a change, in the transaction that makes it: the webhooks area writes it as
 * an event of its catalogue (docs/webhooks.md) with a delivery to each endpoint that takes it, so
 * the event commits or rolls back with the change. Types and data are the catalogue's.
 */
export interface Outbox {
  emit(orgId: string, type: string, data: Record<string, unknown>): Promise<void>;
}

/** For services built without webhooks (a command that opens the database, a test of one area). */
export const noOutbox: Outbox = { emit: () => Promise.resolve() };
