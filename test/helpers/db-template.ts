import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';
import { PostgresDb } from '../../src/core/db/postgres-engine.js';

/**
 * The migrated database every test file starts from, built once and kept between runs: on
 * PGlite a data directory dump in node_modules/.cache, on PostgreSQL a database of the server.
 * Its name carries a hash of the migrations (and of how it is built), so a changed or added
 * migration makes a new one; the old ones are never reused.
 */

/** Bump when the way the template is built changes (not needed for a migration: the hash sees those). */
const RECIPE = 1;

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = path.join(root, 'node_modules', '.cache', 'orgctl-tests');

/** A hash of the migration files, the recipe and the PGlite version (a dump is read by the version that wrote it). */
function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`recipe ${RECIPE}\npglite ${pglite.version}\n`);
  for (const m of loadMigrations()) hash.update(`${m.version} ${m.name} ${m.sql.length}\n${m.sql}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The path of the PGlite template (a dump) for the current migrations, building it if no run has yet. */
export function pgliteTemplate(key = templateKey()): Promise<string> {
  return cached(key, `pglite-${key}.tar`, async (partial) => writeFileSync(partial, await buildPgliteDump()));
}

/**
 * The data directory (`DATA_DIR/pgdata`) of an installation on the current migrations, as
 * `orgctl migrate` leaves it in an empty DATA_DIR, building it if no run has yet: the process
 * tests copy it into their installations instead of migrating each one (about 8 s of CPU).
 */
export function installationTemplate(key = templateKey()): Promise<string> {
  return cached(key, `installation-${key}`, async (partial) => {
    const db = await PgliteDb.open({ dataDir: partial });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
  });
}

/**
 * The path of `name` in the cache, made by `build` (given the path to write) if no run has yet.
 * Several processes may ask at once: one builds (holding a lock file) under another name and
 * renames the finished file or directory into place, the others wait for it, so nobody reads a
 * half-written one.
 */
async function cached(key: string, name: string, build: (partial: string) => Promise<void>): Promise<string> {
  const file = path.join(cacheDir, name);
  const lock = `${file}.lock`;
  mkdirSync(cacheDir, { recursive: true });
  for (;;) {
    if (existsSync(file)) return file;
    const fd = tryLock(lock);
    if (fd === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (existsSync(file)) return file;
      const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      try {
        await build(partial);
        renameSync(partial, file);
      } finally {
        rmSync(partial, { recursive: true, force: true });
      }
      pruneOldTemplates(key);
      return file;
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
  }
}

/**
 * Migrated, then made small: loading the dump is most of a test file's database start, and its
 * size most of that. initdb's 16 MB WAL segment becomes 1 MB, and the template databases go
 * (template0 and template1 are copied only by CREATE DATABASE, which no test runs on PGlite):
 * 41 MB becomes 15 MB.
 */
async function buildPgliteDump(): Promise<Uint8Array> {
  const db = await PgliteDb.open({ dataDir: 'memory://', initdbArgs: ['--wal-segsize=1'] });
  try {
    await migrate(db);
    for (const name of ['template0', 'template1']) {
      await db.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await db.exec(`DROP DATABASE ${name}`);
    }
    await db.exec('CHECKPOINT');
    return await db.dump();
  } finally {
    await db.close();
  }
}

/** An exclusive lock file, or undefined while another process holds it. A lock whose holder is gone is taken over. */
function tryLock(lock: string): number | undefined {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    return fd;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const holder = Number(readText(lock));
  // An empty file is a lock just being written; give its holder a minute before calling it abandoned.
  const abandoned = holder > 0 ? !isAlive(holder) : Date.now() - mtime(lock) > 60_000;
  if (abandoned) rmSync(lock, { force: true });
  return undefined;
}

/**
 * Templates of other migrations (and files a killed builder left), made over a day ago: a run of
 * the old migrations may still be reading its own, and one on another branch may want it back.
 */
function pruneOldTemplates(current: string): void {
  for (const name of readdirSync(cacheDir)) {
    const file = path.join(cacheDir, name);
    const key = /^(?:pglite-([0-9a-f]+)\.tar|installation-([0-9a-f]+))(\..+\.tmp)?$/.exec(name);
    const stale = key && ((key[1] ?? key[2]) !== current || key[3] !== undefined);
    if (stale && Date.now() - mtime(file) > 86_400_000) rmSync(file, { recursive: true, force: true });
  }
}

/**
 * The name of the PostgreSQL template database for the current migrations, creating it if no run
 * has yet. Made under an advisory lock (one builder per server) under another name and renamed
 * when migrated, so a template of this name is always complete. Test databases are created from
 * it with CREATE DATABASE … TEMPLATE, which needs nobody connected to it: only this function
 * connects, before the rename.
 */
export async function postgresTemplate(adminUrl: string, key = templateKey()): Promise<string> {
  const name = `orgctl_template_${key}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin`SELECT pg_advisory_lock(727140002)`;
    const [found] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (found) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const db = new PostgresDb({ url: url.toString(), poolSize: 1, timeoutMs: 60_000 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    try {
      await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (e) {
      // Built meanwhile by a run whose admin connection is to another database (another lock).
      if ((e as { code?: string }).code !== '42P04') throw e;
      await admin.unsafe(`DROP DATABASE ${building}`);
    }
    return name;
  } finally {
    // Ending the session releases the advisory lock.
    await admin.end();
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
