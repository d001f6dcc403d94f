import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/**
 * PGlite is a single-process database: two processes on one data directory would corrupt it.
 * A pid file guards it; a file left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
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
        throw new DataDirInUseError(`The data directory ${dataDir} is in use by process ${pid}. Stop it first, or use DATABASE_URL for several processes.`);
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
