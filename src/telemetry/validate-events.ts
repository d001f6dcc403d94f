import type { TObject } from '@sinclair/typebox';
import { utcDay } from '../core/days.js';
import type { ErrorItem } from '../core/http/errors.js';
import { compiledOnUse, jsonAjv, toErrorItems } from '../core/validation/ajv.js';
import type { TelemetryEvent } from '../events/event.js';
import { Event, EventFields, type Client, type EventType } from '../events/schemas.js';
import { parseTimestamp } from '../events/timestamps.js';
import { repoHint, REPO_RANK } from '../events/repository.js';
import { notARepoUrl } from '../core/net/repo-id.js';
import type { IngestBody } from './schemas.js';

const eventCheck = compiledOnUse(jsonAjv, Event);
const fieldNames = Object.fromEntries(Object.entries(EventFields).map(([type, schema]) => [type, Object.keys((schema as TObject).properties)])) as Record<
  EventType,
  string[]
>;

/**
 * Checks what the body schema cannot: each type's own fields (the event union), the timestamp's
 * form and bounds. Returns every problem, each with the JSON pointer of its field, or the
 * normalised events. `userId` is taken as given here; the service checks who may set it and
 * that it names a user.
 */
export function validateEvents(events: IngestBody['events'], callerId: string, nowMs: number): { events: TelemetryEvent[] } | { errors: ErrorItem[] } {
  const errors: ErrorItem[] = [];
  const out: TelemetryEvent[] = [];
  const validateEvent = eventCheck();
  events.forEach((e, i) => {
    const type = e.type as EventType;
    const ts = parseTimestamp(e.timestamp as string | number, nowMs);
    if ('error' in ts) errors.push({ path: `/events/${i}/timestamp`, message: ts.error });
    if (!validateEvent(e)) {
      // At most 10 problems of one event: a batch of broken events still answers briefly.
      for (const item of toErrorItems(validateEvent.errors ?? []).slice(0, 10)) errors.push({ path: `/events/${i}${item.path}`, message: item.message });
    }
    if (errors.length > 0 || 'error' in ts) return;
    const attrs: Record<string, unknown> = {};
    for (const k of fieldNames[type]) if ((e as Record<string, unknown>)[k] !== undefined) attrs[k] = (e as Record<string, unknown>)[k];
    refuseNul(errors, i, 'id', e.id);
    refuseNul(errors, i, 'sessionId', e.sessionId);
    for (const k in attrs) refuseNul(errors, i, k, attrs[k]);
    const repository = (e as { repository?: { url: string; branch?: string; commit?: string } }).repository;
    const repo = repository && repoHint(repository.url, repository.branch, repository.commit, REPO_RANK.nativeEvent);
    if (repository !== undefined && repo === undefined) errors.push({ path: `/events/${i}/repository/url`, message: notARepoUrl(repository.url) });
    if (errors.length > 0) return;
    out.push({
      id: e.id,
      type,
      ms: ts.ms,
      day: utcDay(ts.ms),
      sessionId: e.sessionId,
      client: e.client as Client,
      userId: e.userId?.toLowerCase() ?? callerId,
      attrs,
      ...(repo ? { repo } : {}),
    });
  });
  return errors.length > 0 ? { errors: dedupeByPath(errors) } : { events: out };
}

/** PostgreSQL text cannot hold NUL; refusing it here keeps it a 400 and not a database error. */
function refuseNul(errors: ErrorItem[], i: number, field: string, value: unknown): void {
  if (typeof value === 'string' && value.includes('\0')) errors.push({ path: `/events/${i}/${field}`, message: 'must not contain the NUL character (U+0000)' });
}

/** Two problems of one field (a bad timestamp's form and its type, say): the first says it. */
function dedupeByPath(items: ErrorItem[]): ErrorItem[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.path) ? false : (seen.add(i.path), true)));
}
