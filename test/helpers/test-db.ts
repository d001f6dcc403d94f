import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { inject } from 'vitest';
import type { Db } from '../../src/core/db/db.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/core/identity/api-key-format.js';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';
import { PostgresDb } from '../../src/core/db/postgres-engine.js';
import { leaseTemplateDb } from './pglite-reuse.js';

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDb {
  db: Db;
  /** The URL of this test's own database on PostgreSQL; undefined on PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database: empty, or a copy of `template`. */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL as string;
  const name = `orgctl_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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

/** A database of this test file's own, a copy of the migrated template (global-setup.ts): PostgreSQL or PGlite. */
export function createTestDb(): Promise<TestDb> {
  const started = early;
  early = undefined;
  return started ?? openTestDb();
}

/** The database setup-file.ts started before the test file was imported, until the file takes it. */
let early: Promise<TestDb> | undefined;

/** Starts the file's first database now (setup-file.ts); its first createTestDb() takes it. */
export function startTestDbEarly(): void {
  early = openTestDb();
  // Its failure is reported by the createTestDb() that takes it.
  early.catch(() => undefined);
}

/** Drops the early database if the file never took it (its tests were skipped, say). */
export async function discardEarlyTestDb(): Promise<void> {
  const started = early;
  early = undefined;
  await started?.then(
    (t) => t.drop(),
    () => undefined,
  );
}

async function openTestDb(): Promise<TestDb> {
  if (inject('lane') === 'unit') throw new Error('A file of the unit lane made a database: move it to the db lane (vitest.config.ts, UNIT).');
  if (onPostgres) {
    const created = await createPostgresDatabase(inject('postgresTemplate'));
    // With the time limit serve has by default (DATABASE_TIMEOUT_MS), so tests run the same path.
    const db = new PostgresDb({ url: created.url, poolSize: 5, timeoutMs: 15_000 });
    return {
      db,
      url: created.url,
      drop: async () => {
        await db.close();
        await created.drop();
      },
    };
  }
  // A database another file gave back, reset to the template, or a new one (pglite-reuse.ts).
  const db = await leaseTemplateDb(() => readFileSync(inject('pgliteTemplate')));
  return { db, url: undefined, drop: () => db.close() };
}

/** A database with nothing in it, not even the migrations, for the tests of a migration: `drop` closes and removes it. */
export async function createEmptyDb(): Promise<TestDb> {
  if (!onPostgres) {
    const db = await PgliteDb.open({ dataDir: 'memory://' });
    return { db, url: undefined, drop: () => db.close() };
  }
  const created = await createPostgresDatabase();
  const db = new PostgresDb({ url: created.url, poolSize: 2 });
  return { db, url: created.url, drop: async () => (await db.close(), await created.drop()) };
}

/**
 * An organization with its owner and an owner API key, written with the columns of the first
 * migration only: a migration's test makes its data on the schema before that migration, where
 * the services' statements, written for the current schema, need not run.
 */
export async function organizationOnOldSchema(db: Db, o: { name: string; ownerEmail: string }): Promise<{ orgId: string; userId: string; apiKey: string }> {
  const [orgId, userId] = [randomUUID(), randomUUID()];
  const apiKey = generateApiKey();
  await db.query(`INSERT INTO organizations (id, name) VALUES ($1, $2)`, [orgId, o.name]);
  await db.query(`INSERT INTO principals (id, org_id, kind, email, name, role) VALUES ($1, $2, 'user', $3, 'Owner', 'owner')`, [userId, orgId, o.ownerEmail]);
  await db.query(`INSERT INTO api_keys (id, org_id, principal_id, name, secret_hash, display_prefix) VALUES ($1, $2, $3, 'owner key', $4, $5)`, [
    randomUUID(),
    orgId,
    userId,
    hashApiKey(apiKey),
    displayPrefix(apiKey),
  ]);
  return { orgId, userId, apiKey };
}
