import { Type } from '@sinclair/typebox';
import type { ErrorObject as AjvError } from 'ajv';
import { errors, type AppError, type CodeOf } from './errors.js';

// A symbol, so the not-found answer stays out of openapi.json (JSON has no symbol keys).
const NOT_FOUND = Symbol('notFound');

interface NotFound {
  what: string;
  code: CodeOf<404>;
}

/**
 * A path parameter that is a resource's UUID. An id that is not a UUID names nothing, so it
 * answers that resource's 404 (`Computer not found.`, computer_not_found), as an unknown UUID
 * does, and never reaches the database.
 */
export const UuidParam = (what: string, code: CodeOf<404>) => Type.String({ format: 'uuid', [NOT_FOUND]: { what, code } satisfies NotFound });

/** The 404 of the first path parameter that failed as a `UuidParam`, if any failed. */
export function paramNotFound(problems: readonly AjvError[], paramsSchema: unknown): AppError | undefined {
  const properties = (paramsSchema as { properties?: Record<string, { [NOT_FOUND]?: NotFound }> } | undefined)?.properties;
  if (properties === undefined) return undefined;
  for (const p of problems) {
    const found = properties[p.instancePath.slice(1)]?.[NOT_FOUND];
    if (found) return errors.notFound(found.what, found.code);
  }
  return undefined;
}
