import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { PgliteDb } from '../../src/core/db/pglite-engine.js';
import { TestApp } from '../helpers/test-app.js';
import { createTestDb, onPostgres } from '../helpers/test-db.js';
import { fingerprintOf, spareCount } from '../helpers/pglite-reuse.js';

// A PGlite database given back by one test file is reset and handed to the next
// (test/helpers/pglite-reuse.ts): the next file must find exactly the template.
describe.skipIf(onPostgres)('a kept PGlite test database', () => {
  it('is given to the next file exactly as a database fresh from the template', async () => {
    const t = await TestApp.start();
    const org = await t.createOrg('reuse');
    await t.addUser(org, 'member');
    const db = t.db;
    for (const { name } of await db.query<{ name: string }>(`SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences`)) {
      await db.query(`SELECT nextval('${name}')`);
    }
    await db.exec(`SET statement_timeout = 1234; CREATE TEMP TABLE scratch (x int); PREPARE two AS SELECT 2`);
    await db.query('SELECT pg_advisory_lock(42)');
    const before = spareCount();
    await t.close();
    expect(spareCount()).toBe(before + 1);
    await expect(db.query('SELECT 1')).rejects.toMatchObject({ code: '57P01' });

    const next = await createTestDb();
    const fresh = await PgliteDb.open({ dataDir: 'memory://', loadDataDir: readFileSync(inject('pgliteTemplate')) });
    try {
      expect(spareCount()).toBe(before);
      expect(await fingerprintOf(next.db)).toBe(await fingerprintOf(fresh));
      expect(await next.db.query(`SELECT count(*)::int AS n FROM organizations`)).toEqual([{ n: 0 }]);
      expect(await next.db.query(`SELECT current_setting('statement_timeout') AS s`)).toEqual(
        await fresh.query(`SELECT current_setting('statement_timeout') AS s`),
      );
      expect(await next.db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`)).toEqual([{ n: 0 }]);
      expect(await next.db.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).toEqual([{ n: 0 }]);
      expect(await next.db.query(`SELECT to_regclass('scratch') AS r`)).toEqual([{ r: null }]);
    } finally {
      await fresh.close();
      await next.drop();
    }
  });

  it('is not kept when the file changed what the reset does not undo', async () => {
    const first = await createTestDb();
    await first.db.exec('CREATE TABLE extra (x int)');
    const before = spareCount();
    await first.drop();
    expect(spareCount()).toBe(before);
    const next = await createTestDb();
    expect(await next.db.query(`SELECT to_regclass('extra') AS r`)).toEqual([{ r: null }]);
    await next.drop();
  });
});
