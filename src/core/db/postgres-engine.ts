import postgres from 'postgres';
import { DbError, type Db, type Queryable } from './db.js';
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
    this.pool = PostgresDb.run(this.sql, options.timeoutMs);
  }

  /**
   * Queries answer within `timeoutMs` or fail as unavailable (57014, answered 503): a server
   * that silently stopped answering must not hold a request for the minutes TCP takes to notice.
   * The query is cancelled on the server too, where that still reaches it. Scripts (migrations)
   * have no limit. Every statement is sent the moment it is called (`execute()`): postgres.js
   * otherwise sends a query when it is first awaited, and statements of one transaction sent
   * together must reach the server in the order they were made (a lock before the writes it
   * guards).
   */
  private static run(sql: postgres.Sql | postgres.TransactionSql, timeoutMs?: number): Queryable {
    return {
      query: async <T>(text: string, params: readonly unknown[] = []) => {
        const pending = sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }).execute();
        let timer: NodeJS.Timeout | undefined;
        try {
          if (timeoutMs === undefined) return (await pending) as unknown as T[];
          // After a time-out, the cancelled query's own failure has nobody waiting for it.
          pending.catch(() => undefined);
          const timedOut = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              pending.cancel();
              reject(new DbError(`the database did not answer within ${timeoutMs} ms`, '57014', undefined));
            }, timeoutMs);
          });
          return (await Promise.race([pending, timedOut])) as unknown as T[];
        } catch (e) {
          throw toDbError(e);
        } finally {
          clearTimeout(timer);
        }
      },
      exec: async (text: string) => {
        try {
          await sql.unsafe(text).execute();
        } catch (e) {
          throw toDbError(e);
        }
      },
    };
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

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const joined = this.scope.current();
    if (joined) return fn(joined);
    try {
      return (await this.sql.begin((sql) => this.scope.run(PostgresDb.run(sql, this.timeoutMs), fn))) as T;
    } catch (e) {
      throw toDbError(e);
    }
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

function toDbError(e: unknown): unknown {
  if (e instanceof DbError || !(e instanceof Error)) return e;
  const pg = e as Error & { code?: string; constraint_name?: string };
  // Only server errors (SQLSTATE codes are five characters) and connection failures are database errors;
  // anything else (a domain error thrown inside a transaction) passes through untouched.
  if (e.name === 'PostgresError' || (typeof pg.code === 'string' && /^[0-9A-Z]{5}$/.test(pg.code))) {
    return new DbError(e.message, pg.code, pg.constraint_name);
  }
  if (typeof pg.code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_)/.test(pg.code)) {
    return new DbError(e.message, '08006', undefined);
  }
  return e;
}
