import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { inject } from 'vitest';
import type { Db } from '../../src/core/db/db.js';
import { migrate } from '../../src/core/db/migrate.js';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';
import { PostgresDb } from '../../src/core/db/postgres-engine.js';

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDb {
  db: Db;
  /** The URL of this test's own database on PostgreSQL; undefined on PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database with the migrations applied. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL as string;
  const name = `orgctl_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A database of this test file's own: a new PostgreSQL database, or PGlite from the migrated template. */
export async function createTestDb(): Promise<TestDb> {
  if (onPostgres) {
    const created = await createPostgresDatabase();
    // With the time limit serve has by default (DATABASE_TIMEOUT_MS), so tests run the same path.
    const db = new PostgresDb({ url: created.url, poolSize: 5, timeoutMs: 15_000 });
    await migrate(db);
    return {
      db,
      url: created.url,
      drop: async () => {
        await db.close();
        await created.drop();
      },
    };
  }
  const db = await PgliteDb.open({ dataDir: 'memory://', loadDataDir: readFileSync(inject('pgliteTemplate')) });
  return { db, url: undefined, drop: () => db.close() };
}
