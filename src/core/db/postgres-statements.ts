import type postgres from 'postgres';
import { systemClock, type Timer } from '../clock.js';
import { DbError, type Queryable } from './db.js';

/** Makes a statement of postgres.js (a pool's, or one connection's): sent when executed. */
export type StatementMaker = (text: string, params?: readonly unknown[]) => postgres.PendingQuery<postgres.Row[]>;

/**
 * Statements made by `make`, answering within `timeoutMs` or failing as unavailable (57014,
 * answered 503): a server that silently stopped answering must not hold a request for the
 * minutes TCP takes to notice. A query the server has is cancelled there too, where that still
 * reaches it. Without `timeoutMs` (scripts: migrations) there is no limit. Every statement is
 * sent the moment it is called (`execute()`): postgres.js otherwise sends a query when it is
 * first awaited, and statements of one transaction sent together must reach the server in the
 * order they were made (a lock before the writes it guards).
 */
export function timedStatements(make: StatementMaker, timeoutMs: number | undefined): Queryable {
  return {
    query: async <T>(text: string, params: readonly unknown[] = []) => {
      const pending = make(text, params).execute();
      // The database answers in real time, whatever the service's clock says: the system clock's timer.
      let timer: Timer | undefined;
      try {
        if (timeoutMs === undefined) return (await pending) as unknown as T[];
        // After a time-out, the cancelled query's own failure has nobody waiting for it.
        pending.catch(() => undefined);
        const timedOut = new Promise<never>((_, reject) => {
          timer = systemClock.timeout(() => {
            // Only a statement the server has (postgres.js sets `state` once it is written) is
            // cancelled. One still waiting for a connection is left to go out once there is one:
            // postgres.js 3.4.9 skips a cancelled statement a connection was being made for, and
            // then never hands that connection back to the pool (it stays idle on the server).
            const sent = (pending as unknown as { state: unknown }).state !== null;
            if (sent) void pending.cancel();
            const message = `the database did not answer within ${timeoutMs} ms`;
            reject(sent ? new DbError(message, '57014', undefined) : new NotSentError(message, '57014', undefined));
          }, timeoutMs);
        });
        return (await Promise.race([pending, timedOut])) as unknown as T[];
      } catch (e) {
        throw toDbError(e);
      } finally {
        timer?.cancel();
      }
    },
    exec: async (text: string) => {
      try {
        await make(text).execute();
      } catch (e) {
        throw toDbError(e);
      }
    },
  };
}

/**
 * A statement that waited its whole time without being sent: its client had no connection for it
 * all that time. postgres.js 3.4.9 can leave a client so for good (a connection made for a
 * statement that was withdrawn meanwhile is never handed back: every later statement queues
 * behind it), so the pool replaces such a client rather than wait on it again.
 */
export class NotSentError extends DbError {}

/** SQLSTATE of a connection that failed or was lost (class 08), answered 503 like any outage. */
export const CONNECTION_FAILURE = '08006';

/** Whether an error (made by toDbError) says the connection is gone: it failed (class 08) or the server ended it (57P01-57P03). */
export const isConnectionFailure = (e: unknown): boolean =>
  e instanceof DbError && e.code !== undefined && (e.code.startsWith('08') || /^57P0[123]$/.test(e.code));

export function toDbError(e: unknown): unknown {
  if (e instanceof DbError || !(e instanceof Error)) return e;
  const pg = e as Error & { code?: string; constraint_name?: string };
  // Only server errors (SQLSTATE codes are five characters) and connection failures are database errors;
  // anything else (a domain error thrown inside a transaction) passes through untouched.
  if (e.name === 'PostgresError' || (typeof pg.code === 'string' && /^[0-9A-Z]{5}$/.test(pg.code))) {
    return new DbError(e.message, pg.code, pg.constraint_name);
  }
  if (typeof pg.code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_)/.test(pg.code)) {
    return new DbError(e.message, CONNECTION_FAILURE, undefined);
  }
  return e;
}
