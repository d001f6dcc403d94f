import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from './db.js';
import { PgliteDb } from './pglite-engine.js';
import { PostgresDb } from './postgres-engine.js';
import { lockDataDir } from './data-dir-lock.js';

/** Opens the configured database: a PostgreSQL server when DATABASE_URL is set, else PGlite in DATA_DIR. */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'> & Partial<Pick<Config, 'databaseTimeoutMs'>>): Promise<Db> {
  if (config.databaseUrl) return new PostgresDb({ url: config.databaseUrl, poolSize: config.databasePoolSize, timeoutMs: config.databaseTimeoutMs });
  mkdirSync(config.dataDir, { recursive: true });
  const release = lockDataDir(config.dataDir);
  try {
    const db = await PgliteDb.open({ dataDir: path.join(config.dataDir, 'pgdata') });
    const close = db.close.bind(db);
    db.close = async () => {
      await close();
      release();
    };
    return db;
  } catch (e) {
    release();
    throw e;
  }
}
