import { errors } from '../http/errors.js';

/**
 * Keyset pagination, newest first: a list ordered by `created_at DESC, id` continues exactly
 * after the row the client names (`startAfter`, an id it was given), however many rows were
 * added since, and a page costs only the rows it reads (no OFFSET).
 */
export interface Position {
  createdAt: number;
  id: string;
}

/** The position of the row `startAfter` names (found by `find`); a 400 on `/startAfter` when it names none of the caller's. */
export async function startPosition(
  startAfter: string | undefined,
  find: (id: string) => Promise<Position | undefined>,
  what: string,
): Promise<Position | undefined> {
  if (startAfter === undefined) return undefined;
  // The query's schema made it a UUID (a malformed one is a 400 there).
  const at = await find(startAfter.toLowerCase());
  if (!at) throw errors.invalid([{ path: '/startAfter', message: `names no ${what} of this organization` }], 'querystring');
  return at;
}

/**
 * The WHERE condition of the rows after a position in `created_at DESC, idColumn` order, bound
 * to `$n` (created_at) and `$n+1` (the id): give it `positionParams(after)` there. Both null
 * (no position) selects from the first row.
 */
export const afterPosition = (n: number, idColumn: string): string =>
  `($${n}::bigint IS NULL OR created_at < $${n}::bigint OR (created_at = $${n}::bigint AND ${idColumn} > $${n + 1}::uuid))`;

export const positionParams = (after: Position | undefined): [number | null, string | null] => [after?.createdAt ?? null, after?.id ?? null];
