import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { ErrorItem } from '../core/http/errors.js';
import type { TelemetryEvent } from '../events/event.js';
import { EventFields, type Client, type EventType } from '../events/schemas.js';
import { parseTimestamp, utcDay } from '../events/timestamps.js';
import type { IngestBody } from './schemas.js';

const checks = Object.fromEntries(Object.entries(EventFields).map(([type, schema]) => [type, TypeCompiler.Compile(schema)])) as Record<EventType, TypeCheck<TSchema>>;
const fieldNames = Object.fromEntries(Object.entries(EventFields).map(([type, schema]) => [type, Object.keys((schema as TObject).properties)])) as Record<EventType, string[]>;

/**
 * Checks what the body schema cannot: each type's own fields, the timestamp's form and bounds.
 * Returns every problem, each with the JSON pointer of its field, or the normalised events.
 * `userId` is taken as given here; the service checks who may set it and that it names a user.
 */
export function validateEvents(events: IngestBody['events'], callerId: string, nowMs: number): { events: TelemetryEvent[] } | { errors: ErrorItem[] } {
  const errors: ErrorItem[] = [];
  const out: TelemetryEvent[] = [];
  events.forEach((e, i) => {
    const type = e.type as EventType;
    const ts = parseTimestamp(e.timestamp as string | number, nowMs);
    if ('error' in ts) errors.push({ path: `/events/${i}/timestamp`, message: ts.error });
    const check = checks[type];
    const before = errors.length;
    // Errors() is the slow path; a valid event only pays for Check().
    for (const err of check.Check(e) ? [] : check.Errors(e)) {
      // Property-level problems only (the object itself is known to be an object).
      errors.push({ path: `/events/${i}${err.path}`, message: describe(err.schema, err.message) });
      if (errors.length - before >= 10) break;
    }
    if (errors.length > 0 || 'error' in ts) return;
    const attrs: Record<string, unknown> = {};
    for (const k of fieldNames[type]) if ((e as Record<string, unknown>)[k] !== undefined) attrs[k] = (e as Record<string, unknown>)[k];
    refuseNul(errors, i, 'id', e.id);
    refuseNul(errors, i, 'sessionId', e.sessionId);
    for (const k in attrs) refuseNul(errors, i, k, attrs[k]);
    if (errors.length > 0) return;
    out.push({ id: e.id, type, ms: ts.ms, day: utcDay(ts.ms), sessionId: e.sessionId, client: e.client as Client, userId: e.userId?.toLowerCase() ?? callerId, attrs });
  });
  return errors.length > 0 ? { errors: dedupeByPath(errors) } : { events: out };
}

/** PostgreSQL text cannot hold NUL; refusing it here keeps it a 400 and not a database error. */
function refuseNul(errors: ErrorItem[], i: number, field: string, value: unknown): void {
  if (typeof value === 'string' && value.includes('\0')) errors.push({ path: `/events/${i}/${field}`, message: 'must not contain the NUL character (U+0000)' });
}

function describe(schema: TSchema, message: string): string {
  const options = (schema.anyOf as { const?: unknown }[] | undefined)?.map((s) => s.const).filter((c) => c !== undefined);
  if (options && options.length > 0) return `must be one of: ${options.join(', ')}`;
  if (message === 'Expected required property') return 'is required';
  return message.replace(/^Expected /, 'must be ');
}

/** A union reports one error per alternative; one line per path reads better. */
function dedupeByPath(items: ErrorItem[]): ErrorItem[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.path) ? false : (seen.add(i.path), true)));
}
