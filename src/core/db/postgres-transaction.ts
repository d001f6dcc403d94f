import type postgres from 'postgres';
import { DbError, type Queryable } from './db.js';
import type { ConnectionPool } from './postgres-pool.js';
import { CONNECTION_FAILURE, isConnectionFailure, NotSentError, timedStatements, toDbError } from './postgres-statements.js';

/**
 * Runs fn in a transaction on a connection of the pool held for it (postgres-pool.ts):
 * - BEGIN is not a round trip of its own: it is sent with the first statement. It cannot fail
 *   on a live connection, and the transaction does not commit unless it answered.
 * - Once the connection is lost, every later statement fails at once as a connection failure
 *   (08006, answered 503), and those postgres.js still queued are withdrawn: it would send them on
 *   the connection it makes again, outside the transaction. The server rolls back what it had.
 * - A connection whose state is unknown (its ROLLBACK failed, or a statement failed with the
 *   connection but the close has not been seen yet) is closed and replaced, never reused.
 */
export async function heldTransaction<T>(
  pool: ConnectionPool,
  timeoutMs: number | undefined,
  body: (statements: Queryable, commit: () => Promise<void>) => Promise<T>,
): Promise<T> {
  let lease: Awaited<ReturnType<ConnectionPool['lease']>>;
  try {
    lease = await pool.lease();
  } catch (e) {
    throw toDbError(e);
  }
  const sql = lease.sql;
  let lost = false;
  /** The transaction's statements not answered yet. */
  const pending = new Set<postgres.PendingQuery<postgres.Row[]>>();
  lease.onLost = () => {
    lost = true;
    // Not sent yet (postgres.js sets `state` when it writes one to the connection): withdrawn before postgres.js reconnects.
    for (const q of pending) if ((q as unknown as { state: unknown }).state === null) void q.cancel();
  };
  const make = (text: string, params: readonly unknown[] = []) => {
    const q = sql.unsafe<postgres.Row[]>(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
    pending.add(q);
    const settled = () => pending.delete(q);
    q.then(settled, settled);
    return q;
  };
  const begun = make('BEGIN').execute();
  // Awaited with COMMIT; should the transaction fail first, its failure has nobody waiting.
  begun.catch(() => undefined);
  const timed = timedStatements(make, timeoutMs);
  const gone = () => Promise.reject(new DbError('the database connection was lost during the transaction', CONNECTION_FAILURE, undefined));
  const statements: Queryable = {
    query: (text, params) => (lost ? gone() : timed.query(text, params)),
    exec: (text) => (lost ? gone() : timed.exec(text)),
  };
  // COMMIT is sent at once; it counts only if BEGIN answered (it has, unless the connection is gone).
  const commit = async () => {
    const committed = statements.query('COMMIT');
    committed.catch(() => undefined);
    await begun.catch((e: unknown) => Promise.reject(toDbError(e)));
    await committed;
  };
  try {
    const result = await body(statements, commit);
    release('committed');
    return result;
  } catch (e) {
    await end(e);
    throw e;
  }

  function release(outcome: 'committed' | 'reusable' | 'broken'): void {
    lease.onLost = undefined;
    lease.release(outcome);
  }

  /** After a failure: the connection is reused only if it is known to be out of the transaction. */
  async function end(failure: unknown): Promise<void> {
    // Lost: postgres.js connects again for the next statement, and the server rolled back.
    if (lost) return release('reusable');
    // Its client never got a connection for a statement: a ROLLBACK would only queue behind it.
    if (failure instanceof NotSentError) return release('broken');
    if (!isConnectionFailure(failure)) {
      try {
        await statements.query('ROLLBACK');
        return release('reusable');
      } catch {
        // Not answered: the connection's state is unknown.
      }
    }
    release(lost ? 'reusable' : 'broken');
  }
}
