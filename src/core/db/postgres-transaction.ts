import type postgres from 'postgres';
import { DbError, type Queryable } from './db.js';
import { CONNECTION_FAILURE, isConnectionFailure, timedStatements, toDbError } from './postgres-statements.js';

/**
 * The part of a postgres.js connection a transaction needs. postgres.js hands the connection to
 * a query's `onexecute` option when it sends the query, as its own `begin` reads it (the option
 * is not in its types, so the dependency is pinned to an exact version and
 * test/faults/lost-connection.test.ts checks the behaviour built on it). `onclose` is called
 * once, when the connection is lost; `terminate` closes it.
 */
interface PgConnection {
  onclose: ((e: Error) => void) | null;
  terminate(): void;
}

/**
 * Runs fn in a transaction on a connection reserved for it. Unlike postgres.js's `begin`:
 * - BEGIN is not a round trip of its own: it is sent with the first statement. It cannot fail
 *   on a live connection, and the transaction does not commit unless it answered.
 * - Once the connection is lost, every later statement fails at once as a connection failure
 *   (08006, answered 503). postgres.js would write it to the closed socket: that throws out of a
 *   timer, an uncaught exception that stops the process, and the statement never answers.
 * - A lost connection, or one whose state is unknown (its ROLLBACK failed, or a statement
 *   failed with the connection), is not given back to the pool: postgres.js's release would
 *   put a closed connection among the open ones. The server rolls back what it had.
 */
export async function reservedTransaction<T>(pool: postgres.Sql, timeoutMs: number | undefined, body: (statements: Queryable, commit: () => Promise<void>) => Promise<T>): Promise<T> {
  let reserved: postgres.ReservedSql;
  try {
    reserved = await pool.reserve();
  } catch (e) {
    throw toDbError(e);
  }
  let connection: PgConnection | undefined;
  let lost = false;
  const onexecute = (c: PgConnection) => {
    connection = c;
    c.onclose = () => (lost = true);
    // True: the connection takes the next statements at once (postgres.js would queue them).
    return true;
  };
  const begun = reserved.unsafe('BEGIN', [], { onexecute } as postgres.UnsafeQueryOptions).execute();
  // Awaited with COMMIT; should the transaction fail first, its failure has nobody waiting.
  begun.catch(() => undefined);
  const timed = timedStatements((text, params = []) => reserved.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }), timeoutMs);
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
  // Back to the pool without this transaction's handler, which only marks this transaction's connection lost.
  const release = () => {
    if (connection) connection.onclose = null;
    reserved.release();
  };
  try {
    const result = await body(statements, commit);
    release();
    return result;
  } catch (e) {
    await end(e);
    throw e;
  }

  /** After a failure: the connection goes back to the pool only if it is known to be out of the transaction. */
  async function end(failure: unknown): Promise<void> {
    if (lost) return;
    if (!isConnectionFailure(failure)) {
      try {
        await statements.query('ROLLBACK');
        if (!lost) release();
        return;
      } catch {
        // Not answered: the connection's state is unknown.
      }
    }
    if (!lost) connection?.terminate();
  }
}
