import type { Config } from '../../config.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openDb } from './open-db.js';

/** Opens the configured database, brings its schema up to date, runs fn, and closes it. */
export async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(config);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}
