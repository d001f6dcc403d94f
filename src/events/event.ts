import type { RepoHint } from './repository.js';
import type { Client, EventType } from './schemas.js';

/**
 * An event ready to store: its own fields only, its instant, UTC day and user. Every way in
 * (native ingestion, OTLP) produces it, and analytics' rollups are sums of it.
 */
export interface TelemetryEvent {
  id: string;
  type: EventType;
  ms: number;
  day: string;
  sessionId: string;
  client: Client;
  /** The principal the event belongs to: the caller, or the `userId` an owner or manager named. */
  userId: string;
  attrs: Record<string, unknown>;
  /** The session's repository, when the event tells it (events/repository.ts). */
  repo?: RepoHint;
}
