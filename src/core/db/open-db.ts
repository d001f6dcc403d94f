import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from './db.js';
import { PgliteDb } from './pglite-engine.js';
import { PostgresDb } from './postgres-engine.js';

export class DataDirInUseError extends Error {}

/** Opens the configured database: a PostgreSQL server when DATABASE_URL is set, else PGlite in DATA_DIR. */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'>): Promise<Db> {
  if (config.databaseUrl) return new PostgresDb({ url: config.databaseUrl, poolSize: config.databasePoolSize });
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

/**
 * PGlite is a single-process database: two processes on one data directory would corrupt it.
 * A pid file guards it; a file left by a process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'orgctl.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(
          `The data directory ${dataDir} is in use by process ${pid}. Stop it first, or use DATABASE_URL for several processes.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
