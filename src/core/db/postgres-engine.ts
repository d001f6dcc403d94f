import postgres from 'postgres';
import type { Db, Queryable } from './db.js';
import { ConnectionPool } from './postgres-pool.js';
import { timedStatements, type StatementMaker } from './postgres-statements.js';
import { heldTransaction } from './postgres-transaction.js';
import { TransactionScope } from './transaction-scope.js';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** How long connecting or one query may take (DATABASE_TIMEOUT_MS); none when unset. */
  timeoutMs?: number;
}

/** A PostgreSQL server through postgres.js: a pool of connections (postgres-pool.ts) and prepared statements. */
export class PostgresDb implements Db {
  readonly engine = 'postgres' as const;
  private readonly connections: ConnectionPool;
  private readonly pool: Queryable;
  private readonly timeoutMs: number | undefined;
  /** The transaction the calling code runs in. */
  private readonly scope = new TransactionScope();

  constructor(options: PostgresOptions) {
    this.timeoutMs = options.timeoutMs;
    // One set of options for every client of the pool (postgres.js takes options it parsed as they
    // are), so the array types one connection fetched serve all of them (postgres-pool.ts).
    const shared = postgres(options.url, {
      max: 1,
      ...(options.timeoutMs !== undefined ? { connect_timeout: Math.max(1, Math.ceil(options.timeoutMs / 1000)) } : {}),
      prepare: true,
      onnotice: () => undefined,
      // Connecting again after a failure waits at most a second (postgres.js waits up to 20 s after
      // a few failures in a row): the service answers again within about a second of the server.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
      connection: { application_name: 'orgctl' },
      // int8 as a JS number, as PGlite does: every count and credit sum we keep stays below 2^53.
      types: {
        int8: { to: 20, from: [20], serialize: (v: unknown) => String(v), parse: (v: string) => Number(v) },
      },
    }).options;
    const open = (onclose: () => void) => postgres({ ...shared, onclose } as unknown as postgres.Options<Record<string, never>>);
    this.connections = new ConnectionPool(open, options.poolSize, options.timeoutMs);
    this.pool = {
      query: (text, params) => this.connections.run((sql) => timedStatements(onConnection(sql), options.timeoutMs).query(text, params)),
      exec: (text) => this.connections.run((sql) => timedStatements(onConnection(sql), options.timeoutMs).exec(text)),
    };
  }

  query<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return (this.scope.current() ?? this.pool).query<T>(text, params);
  }

  exec(text: string): Promise<void> {
    return (this.scope.current() ?? this.pool).exec(text);
  }

  write(text: string, params?: readonly unknown[]): void {
    this.scope.write(text, params);
  }

  /** postgres.js reads rows faster than the server would build them into JSON: a plain query. */
  queryMany<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.query<T>(text, params);
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.current()) return fn();
    return heldTransaction(this.connections, this.timeoutMs, (statements, commit) => this.scope.run(statements, fn, commit));
  }

  async close(): Promise<void> {
    await this.connections.close();
  }
}

/** Statements on one client of the pool, prepared. */
const onConnection =
  (sql: postgres.Sql): StatementMaker =>
  (text, params = []) =>
    sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
