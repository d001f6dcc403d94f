import type { Db } from '../db/db.js';

type Incr = (key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number) => void;

/**
 * @fastify/rate-limit's store on PostgreSQL: one fixed-window counter row per key and window,
 * one upsert per request, so every process on the database counts together. Old windows are
 * removed now and then by whichever request happens to be first in a new minute.
 */
export class PostgresRateStore {
  private lastSweep = 0;

  constructor(private readonly db: Db) {}

  /** The plugin constructs stores itself (`new Store(options)`): this binds ours to the database. */
  static for(db: Db) {
    return class {
      private readonly store = new PostgresRateStore(db);
      incr: Incr = (key, callback, timeWindow) => this.store.incr(key, callback, timeWindow);
      child() {
        return this;
      }
    };
  }

  incr(key: string, callback: Parameters<Incr>[1], timeWindow: number): void {
    const now = Date.now();
    const windowStart = now - (now % timeWindow);
    this.db
      .query<{ count: number }>(
        `INSERT INTO rate_limit_windows (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_windows.count + 1 RETURNING count`,
        [key, windowStart],
      )
      .then(
        ([row]) => {
          callback(null, { current: row!.count, ttl: windowStart + timeWindow - now });
          if (windowStart > this.lastSweep) {
            this.lastSweep = windowStart;
            this.db.query(`DELETE FROM rate_limit_windows WHERE window_start < $1`, [windowStart - timeWindow]).catch(() => undefined);
          }
        },
        (e: Error) => callback(e),
      );
  }
}
