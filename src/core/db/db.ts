/** A SQL connection that runs parameterised PostgreSQL ($1, $2, ...). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** Statements that may run in a transaction: those of one transaction (Db.transaction), or the Db itself. */
export interface Transaction extends Queryable {
  /**
   * Sends a statement whose rows nobody reads, without waiting for it: the transaction sends
   * COMMIT behind it, and fails if it failed (the server then rolls back, and the transaction's
   * error is this statement's). Writes at the end of a transaction so share their round trip
   * with COMMIT. Statements made after a failed write fail too (the transaction is aborted).
   * On a Db it joins the transaction the caller runs in, and throws outside one: with no COMMIT
   * to wait for it, nobody would hear of its failure.
   */
  write(sql: string, params?: readonly unknown[]): void;
}

export interface Db extends Transaction {
  readonly engine: 'pglite' | 'postgres';
  /**
   * A read of many rows, the same rows as query() returns, for columns that are text, numbers,
   * booleans or arrays of them (cast dates, and sums that can pass 2^53, to text). The embedded
   * engine carries them as one JSON document: its row parser costs about 12 µs a row, three
   * times what building and parsing the document costs. Rows keep the order of the statement's
   * ORDER BY, which must be its last clause.
   */
  queryMany<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs fn in one transaction; commits when it resolves, rolls back when it throws. The
   * transaction is carried in AsyncLocalStorage (transaction-scope.ts), so fn is given no handle:
   * every statement made through this db while fn runs, by fn or any service or store it calls,
   * belongs to it, and a transaction begun inside it joins it. fn awaits every statement it
   * makes (`query`, `exec`);
   * one still running when fn settles fails the transaction. Only `write`s may still be running:
   * COMMIT goes out behind them. Several statements may be in flight at once (one store call's,
   * sent together), as on a single connection they run in the order they were sent.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An error raised by the database, with its SQLSTATE code (23505 unique violation, ...). */
export class DbError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly constraint: string | undefined,
  ) {
    super(message);
    this.name = 'DbError';
  }
}

export const isUniqueViolation = (e: unknown, constraint?: string): boolean =>
  e instanceof DbError && e.code === '23505' && (constraint === undefined || e.constraint === constraint);
