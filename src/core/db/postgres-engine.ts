import postgres from 'postgres';
import type { Db, Queryable, Transaction } from './db.js';
import { timedStatements } from './postgres-statements.js';
import { reservedTransaction } from './postgres-transaction.js';
import { TransactionScope } from './transaction-scope.js';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** How long connecting or one query may take (DATABASE_TIMEOUT_MS); none when unset. */
  timeoutMs?: number;
}

/** A PostgreSQL server through postgres.js: a pool of connections and prepared statements. */
export class PostgresDb implements Db {
  readonly engine = 'postgres' as const;
  private readonly sql: postgres.Sql;
  private readonly pool: Queryable;
  private readonly timeoutMs: number | undefined;
  /** The transaction the calling code runs in. */
  private readonly scope = new TransactionScope();

  constructor(options: PostgresOptions) {
    this.timeoutMs = options.timeoutMs;
    this.sql = postgres(options.url, {
      max: options.poolSize,
      ...(options.timeoutMs !== undefined ? { connect_timeout: Math.max(1, Math.ceil(options.timeoutMs / 1000)) } : {}),
      prepare: true,
      onnotice: () => undefined,
      connection: { application_name: 'orgctl' },
      // int8 as a JS number, as PGlite does: every count and credit sum we keep stays below 2^53.
      types: {
        int8: { to: 20, from: [20], serialize: (v: unknown) => String(v), parse: (v: string) => Number(v) },
      },
    });
    this.pool = timedStatements((text, params = []) => this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }), options.timeoutMs);
  }

  query<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return (this.scope.current() ?? this.pool).query<T>(text, params);
  }

  exec(text: string): Promise<void> {
    return (this.scope.current() ?? this.pool).exec(text);
  }

  /** postgres.js reads rows faster than the server would build them into JSON: a plain query. */
  queryMany<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.query<T>(text, params);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const joined = this.scope.current();
    if (joined) return fn(joined);
    return reservedTransaction(this.sql, this.timeoutMs, (statements, commit) => this.scope.run(statements, fn, commit));
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
