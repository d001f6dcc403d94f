import { Worker } from 'node:worker_threads';
import { DbError, type Db, type Queryable } from './db.js';
import { Mutex } from './mutex.js';
import { TransactionScope } from './transaction-scope.js';

type Reply = { id: number; ok: boolean; rows?: unknown[]; dump?: Uint8Array; error?: { message: string; code?: string; constraint?: string } };
type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };

export interface PgliteOptions {
  /** A directory, or `memory://` for a database that lives only as long as the process. */
  dataDir: string;
  /** A data directory dump (see `dump()`) to start from instead of an empty cluster. */
  loadDataDir?: Uint8Array;
  /** Extra initdb arguments for a new cluster (the tests' template makes its WAL segments small). */
  initdbArgs?: string[];
}

/**
 * The embedded engine: PGlite in a worker thread. PGlite is one connection and the worker runs
 * messages strictly in arrival order, so plain statements are sent at once (pipelined, without
 * waiting for the previous answer). Only a transaction needs the connection to itself: from
 * its BEGIN to its COMMIT, statements of other callers wait at the gate and go out after it,
 * while those made inside it (the scope) go out in it.
 */
export class PgliteDb implements Db {
  readonly engine = 'pglite' as const;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  /** Serialises transactions. */
  private readonly txMutex = new Mutex();
  /** The transaction the calling code runs in. */
  private readonly scope = new TransactionScope();
  /** Set while a transaction owns the connection; resolves when it ends. */
  private txGate: Promise<void> | null = null;
  private nextId = 1;
  private nextTx = 1;
  private stopped: Error | undefined;
  private readonly ready: Promise<void>;

  private constructor(options: PgliteOptions) {
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: options.dataDir, loadDataDir: options.loadDataDir, initdbArgs: options.initdbArgs },
    });
    this.ready = new Promise((resolve, reject) => {
      this.pending.set(0, { resolve: (r) => (r.ok ? resolve() : reject(toDbError(r))), reject });
    });
    this.worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      p.resolve(reply);
    });
    const fail = (e: Error) => {
      this.stopped = new DbError(`embedded database stopped: ${e.message}`, '57P01', undefined);
      for (const p of this.pending.values()) p.reject(this.stopped);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
  }

  static async open(options: PgliteOptions): Promise<PgliteDb> {
    const db = new PgliteDb(options);
    try {
      await db.ready;
    } catch (e) {
      await db.worker.terminate();
      throw e;
    }
    return db;
  }

  private send(msg: { type: string; sql?: string; params?: readonly unknown[]; tx?: number }): Promise<Reply> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    }).then((r) => {
      if (!r.ok) throw toDbError(r);
      return r;
    });
  }

  /** Statements sent at once; those of a transaction carry its number. */
  private statements(tx?: number): Queryable {
    return {
      query: async <T>(sql: string, params: readonly unknown[] = []) => (await this.send({ type: 'query', sql, params, tx })).rows as T[],
      exec: async (sql: string) => {
        await this.send({ type: 'exec', sql, tx });
      },
    };
  }

  private readonly direct = this.statements();

  /** Runs `fn` once no transaction owns the connection. */
  private async outsideTransactions<T>(fn: () => Promise<T>): Promise<T> {
    while (this.txGate) await this.txGate;
    return fn();
  }

  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const tx = this.scope.current();
    if (tx) return tx.query<T>(sql, params);
    return this.txGate ? this.outsideTransactions(() => this.direct.query<T>(sql, params)) : this.direct.query<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    const tx = this.scope.current();
    return tx ? tx.exec(sql) : this.outsideTransactions(() => this.direct.exec(sql));
  }

  write(sql: string, params?: readonly unknown[]): void {
    this.scope.write(sql, params);
  }

  async queryMany<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    // PostgreSQL aggregates a sorted subquery's rows in their order.
    const [doc] = await this.query<{ rows: string }>(
      `SELECT coalesce(json_agg(q), '[]')::text AS rows FROM (${sql}
) AS q`,
      params,
    );
    return JSON.parse(doc!.rows) as T[];
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.current()) return fn();
    return this.txMutex.run(async () => {
      let release = () => undefined as void;
      this.txGate = new Promise<void>((r) => (release = r));
      const tx = this.nextTx++;
      // Not awaited: the first statement goes out behind it, sparing the worker a wait for this
      // thread (which may be busy with another request). Should BEGIN fail, the worker refuses
      // the transaction's other statements, so none of them runs on its own.
      const begun = this.send({ type: 'begin', tx });
      begun.catch(() => undefined);
      try {
        try {
          return await this.scope.run(this.statements(tx), fn, async () => {
            await begun;
            await this.send({ type: 'exec', sql: 'COMMIT', tx });
          });
        } catch (e) {
          await this.send({ type: 'exec', sql: 'ROLLBACK', tx }).catch(() => undefined);
          throw await begun.then(
            () => e,
            (beginError: unknown) => beginError,
          );
        }
      } finally {
        this.txGate = null;
        release();
      }
    });
  }

  /** A copy of the whole data directory, to start other instances from (tests use it). */
  dump(): Promise<Uint8Array> {
    return this.outsideTransactions(async () => (await this.send({ type: 'dump' })).dump as Uint8Array);
  }

  async close(): Promise<void> {
    if (!this.stopped) {
      await this.txMutex.run(() => this.outsideTransactions(() => this.send({ type: 'close' }))).catch(() => undefined);
    }
    await this.worker.terminate();
  }
}

function toDbError(r: Reply): DbError {
  return new DbError(r.error?.message ?? 'database error', r.error?.code, r.error?.constraint);
}
