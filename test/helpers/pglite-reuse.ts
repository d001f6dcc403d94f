import { inject } from 'vitest';
import { DbError, type Db, type Queryable } from '../../src/core/db/db.js';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';

/**
 * PGlite databases kept across the test files of a worker, reset to the template between them.
 * Opening one from the template costs about 1.3 s of CPU (starting PostgreSQL in WebAssembly,
 * unpacking the dump); putting a used one back costs about a tenth of that. Files of the
 * `db` lane share modules (isolate: false), so a database a file gave back is here for
 * the next one.
 *
 * A file gets a lease, not the database: once it is given back, statements through it fail, as
 * on a closed database, so a file's leftover timers cannot write into the next file's. The
 * reset is DISCARD ALL (settings, session advisory locks, temporary tables, prepared
 * statements), TRUNCATE of the tables the template leaves empty and setval of every sequence
 * to its template value. Then a fingerprint is compared with the template's: the content of
 * every table and sequence, and of every system catalog (tables, columns, functions, roles,
 * database settings, statistics...) its rows' count and the count written since the template.
 * Anything a file did that the reset does not undo (a table made or altered, a seeded row
 * changed, ANALYZE) shows there, and that database is closed rather than kept: a file always
 * starts from the template state exactly.
 */

/** What the reset runs, and the fingerprint it must reach: taken from a database fresh from the template. */
interface Template {
  /** Names the tables the template leaves empty that have rows now. */
  filled: string;
  reset: string;
  fingerprintSql: string;
  fingerprint: string;
}

let template: Promise<Template> | undefined;
/** Databases given back and reset, waiting for the next file. */
const spares: PgliteDb[] = [];
/** A file that holds two at once opens the second; both are then kept, for such files. */
const MAX_SPARES = 2;

/** A database in the template state: a spare if there is one, else a new one loaded from `dump`. */
export async function leaseTemplateDb(dump: () => Uint8Array): Promise<Db> {
  const spare = spares.pop();
  if (spare) return new Lease(spare);
  const db = await PgliteDb.open({ dataDir: 'memory://', loadDataDir: dump() });
  if (keeping()) {
    // Taken once per worker, from a database nobody has used yet.
    template ??= describeTemplate(db);
    await template;
  }
  return new Lease(db);
}

/** How many given-back databases wait for a file (for the tests of this module). */
export function spareCount(): number {
  return spares.length;
}

/** Where each file has modules of its own (the process lanes), no later file would find a kept database. */
function keeping(): boolean {
  return inject('keepPgliteDatabases') === true;
}

/** Resets `db` and keeps it for the next file, or closes it if it cannot be made the template again. */
async function giveBack(db: PgliteDb): Promise<void> {
  if (keeping() && spares.length < MAX_SPARES && (await resetToTemplate(db))) spares.push(db);
  else await db.close();
}

/** True when `db` is again in the template state (by its fingerprint). */
async function resetToTemplate(db: PgliteDb): Promise<boolean> {
  if (!template) return false;
  const { filled, reset, fingerprint, fingerprintSql } = await template;
  try {
    // DISCARD ALL cannot run in a transaction block, and a script of several statements is one.
    await db.exec('DISCARD ALL');
    // Only the tables with rows (a file fills a few of the 51); CASCADE takes the empty ones that
    // refer to them (were a seeded one among them, the fingerprint would differ).
    const tables = (await db.query<{ name: string }>(filled)).map((t) => t.name);
    // CHECKPOINT lets PostgreSQL drop the WAL so far, which would otherwise pile up in memory.
    await db.exec(`${tables.length ? `TRUNCATE ${tables.join(', ')} CASCADE;` : ''}${reset}\nCHECKPOINT;`);
    return (await hash(db, fingerprintSql)) === fingerprint;
  } catch {
    return false;
  }
}

async function describeTemplate(db: PgliteDb): Promise<Template> {
  // Every row a later statement writes into a catalog has a transaction id from here on.
  const [{ next }] = (await db.query<{ next: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS next`)) as [{ next: string }];
  const relations = await db.query<{ name: string; kind: 'table' | 'sequence' | 'catalog'; rows: number }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, CASE WHEN c.relkind = 'S' THEN 'sequence' WHEN n.nspname = 'pg_catalog' THEN 'catalog' ELSE 'table' END AS kind,
        0 AS rows
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'S') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1`,
  );
  const tables = relations.filter((r) => r.kind === 'table');
  for (const t of tables) t.rows = (await db.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${t.name}`))[0]!.rows;
  const setvals: string[] = [];
  for (const { name } of relations.filter((r) => r.kind === 'sequence')) {
    const [s] = await db.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${name}`);
    setvals.push(`SELECT setval('${name}', ${s!.last_value}, ${s!.is_called});`);
  }
  const empty = tables.filter((t) => t.rows === 0).map((t) => t.name);
  const filled = empty.map((t) => `SELECT '${t}' AS name WHERE EXISTS (SELECT FROM ${t})`).join('\nUNION ALL\n') || 'SELECT NULL AS name WHERE false';
  const fingerprintSql = fingerprintQuery(relations, next);
  return { filled, reset: setvals.join('\n'), fingerprintSql, fingerprint: await hash(db, fingerprintSql) };
}

/** Columns of pg_class and pg_database that TRUNCATE or VACUUM change (in place) without changing what a test sees. */
const STORAGE_COLUMNS = ['relfilenode', 'relpages', 'reltuples', 'relallvisible', 'relfrozenxid', 'relminmxid', 'datfrozenxid', 'datminmxid'];

/**
 * One line per table and sequence, a hash of its rows, and per system catalog its count of rows
 * and of rows written after the template (from transaction `next` on): a catalog row is never
 * changed in place but by a new version, so any change shows in one count or the other. pg_class
 * (whose rows TRUNCATE rewrites) and pg_database (changed in place by VACUUM) are hashed
 * instead, without their storage columns. Hashing every catalog took 0.4 s; this a few hundredths.
 */
function fingerprintQuery(relations: readonly { name: string; kind: string }[], next: string): string {
  const skip = `ARRAY[${STORAGE_COLUMNS.map((c) => `'${c}'`).join(', ')}]`;
  const hashed = (name: string, row: string) => `SELECT '${name} ' || coalesce(md5(string_agg(${row}, E'\\n' ORDER BY ${row})), '-') AS h FROM ${name} t`;
  const parts = relations.map(({ name, kind }) => {
    // A sequence has no row type.
    if (kind === 'sequence') return hashed(name, `format('%s %s %s', last_value, log_cnt, is_called)`);
    if (kind === 'table') return hashed(name, 't::text');
    if (name === 'pg_catalog.pg_class' || name === 'pg_catalog.pg_database') return hashed(name, `(to_jsonb(t) - ${skip})::text`);
    return `SELECT format('${name} %s %s', count(*), count(*) FILTER (WHERE xmin::text::bigint >= ${next})) AS h FROM ${name}`;
  });
  return `SELECT string_agg(h, E'\\n' ORDER BY h) AS h FROM (${parts.join('\nUNION ALL\n')}) AS parts`;
}

async function hash(db: Queryable, sql: string): Promise<string> {
  const [{ h }] = (await db.query<{ h: string }>(sql)) as [{ h: string }];
  return h;
}

/** The fingerprint of `db`, to compare with the template's (for the tests of this module). */
export async function fingerprintOf(db: Queryable): Promise<string> {
  if (!template) throw new Error('no template database opened yet');
  return hash(db, (await template).fingerprintSql);
}

/** A file's hold on a kept database; giving it back (close) ends it. */
class Lease implements Db {
  readonly engine = 'pglite' as const;
  private ended: Promise<void> | undefined;

  constructor(private readonly db: PgliteDb) {}

  /** What a statement made after the file gave the database back gets (checked at once, so statements keep their order). */
  private stopped(): DbError {
    return new DbError('embedded database stopped: the test file gave it back', '57P01', undefined);
  }

  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.ended ? Promise.reject(this.stopped()) : this.db.query<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.ended ? Promise.reject(this.stopped()) : this.db.exec(sql);
  }

  write(sql: string, params?: readonly unknown[]): void {
    if (this.ended) throw this.stopped();
    this.db.write(sql, params);
  }

  queryMany<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.ended ? Promise.reject(this.stopped()) : this.db.queryMany<T>(sql, params);
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.ended ? Promise.reject(this.stopped()) : this.db.transaction(fn);
  }

  /** Gives the database back (once; later calls wait for the same). */
  close(): Promise<void> {
    this.ended ??= giveBack(this.db);
    return this.ended;
  }
}
