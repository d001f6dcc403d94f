import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbError, isUniqueViolation } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { TestApp } from '../helpers/test-app.js';
import { onPostgres } from '../helpers/test-db.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t?.close());

describe('migrations', () => {
  it('are numbered uniquely, recorded, and applying them again changes nothing', async () => {
    const files = loadMigrations();
    const versions = files.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const recorded = await t.db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(recorded.map((r) => r.version)).toEqual(files.map((m) => m.version));
    expect(await migrate(t.db)).toEqual([]);
    expect(await t.db.query('SELECT version FROM schema_migrations')).toHaveLength(files.length);
  });
});

describe('transactions and errors', () => {
  it('a transaction that throws leaves nothing behind', async () => {
    await t.db.exec('CREATE TABLE tx_probe (id int PRIMARY KEY)');
    await expect(
      t.db.transaction(async () => {
        await t.db.query('INSERT INTO tx_probe VALUES (1)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await t.db.query('SELECT * FROM tx_probe')).toEqual([]);
  });

  it('a statement issued while a transaction runs never joins it', async () => {
    await t.db.exec('CREATE TABLE gate_probe (id int PRIMARY KEY)');
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    let issued!: () => void;
    const outsideIssued = new Promise<void>((r) => (issued = r));
    const tx = t.db
      .transaction(async () => {
        await t.db.query('INSERT INTO gate_probe VALUES (1)');
        inside();
        // Open until the statement outside it has been issued: no sleep, the order is certain.
        await outsideIssued;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await started;
    const outside = t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM gate_probe');
    issued();
    const seen = await outside;
    expect(await tx).toBe('rolled back');
    expect(seen).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT * FROM gate_probe')).toEqual([]);
  });

  it('statements sent together in a transaction commit together, or not at all when one fails', async () => {
    await t.db.exec('CREATE TABLE batch_probe (id int PRIMARY KEY)');
    await t.db.transaction(() => Promise.all([1, 2, 3].map((i) => t.db.query('INSERT INTO batch_probe VALUES ($1)', [i]))));
    const failed = await t.db
      .transaction(() => Promise.all([4, 5, 1].map((i) => t.db.query('INSERT INTO batch_probe VALUES ($1)', [i]))))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(failed)).toBe(true);
    expect(await t.db.query('SELECT id FROM batch_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('a statement left running when the transaction function returns fails the transaction, which stores nothing', async () => {
    await t.db.exec('CREATE TABLE straggler_probe (id int PRIMARY KEY)');
    const failed = await t.db
      .transaction(async () => {
        await t.db.query('INSERT INTO straggler_probe VALUES (1)');
        void t.db.query('SELECT pg_sleep(0.05)');
        return 'returned';
      })
      .catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/still running .* await every statement/);
    expect(await t.db.query('SELECT * FROM straggler_probe')).toEqual([]);
  });

  it('a statement made through the db inside a transaction runs in it', async () => {
    await t.db.exec('CREATE TABLE scope_probe (id int PRIMARY KEY)');
    const seen = await t.db
      .transaction(async () => {
        await t.db.query('INSERT INTO scope_probe VALUES (1)');
        const rows = await t.db.queryMany<{ id: number }>('SELECT id FROM scope_probe ORDER BY id');
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((e: { rows: unknown }) => e.rows);
    expect(seen).toEqual([{ id: 1 }]);
    expect(await t.db.query('SELECT * FROM scope_probe')).toEqual([]);
  });

  it('a transaction begun inside another joins it: both commit, or neither', async () => {
    await t.db.exec('CREATE TABLE join_probe (id int PRIMARY KEY)');
    const insert = (id: number) => t.db.transaction(() => t.db.query('INSERT INTO join_probe VALUES ($1)', [id]));
    await t.db.transaction(async () => {
      await t.db.query('INSERT INTO join_probe VALUES (1)');
      await insert(2);
    });
    const failed = await t.db
      .transaction(async () => {
        await insert(3);
        await insert(1);
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(failed)).toBe(true);
    expect(await t.db.query('SELECT id FROM join_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('writes are not awaited by the transaction function: they commit with it, COMMIT sent behind them', async () => {
    await t.db.exec('CREATE TABLE write_probe (id int PRIMARY KEY)');
    const result = await t.db.transaction(async () => {
      await t.db.query('INSERT INTO write_probe VALUES (1)');
      for (const id of [2, 3]) t.db.write('INSERT INTO write_probe VALUES ($1)', [id]);
      // A slow write: the transaction's end waits for it.
      t.db.write('INSERT INTO write_probe SELECT 4 FROM pg_sleep(0.05)');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await t.db.query('SELECT id FROM write_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
  });

  it('a write that fails fails the transaction with its own error, even when a later statement fails after it, and nothing commits', async () => {
    await t.db.exec('CREATE TABLE failed_write_probe (id int CONSTRAINT failed_write_probe_pk PRIMARY KEY)');
    await t.db.query('INSERT INTO failed_write_probe VALUES (1)');
    const last = await t.db
      .transaction(async () => {
        await t.db.query('INSERT INTO failed_write_probe VALUES (2)');
        t.db.write('INSERT INTO failed_write_probe VALUES (1)');
        t.db.write('INSERT INTO failed_write_probe VALUES (3)');
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(last, 'failed_write_probe_pk')).toBe(true);
    // The query after the failed write fails as aborted (25P02); the transaction reports the cause.
    const followed = await t.db
      .transaction(async () => {
        t.db.write('INSERT INTO failed_write_probe VALUES (1)');
        await t.db.query('INSERT INTO failed_write_probe VALUES (4)');
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(followed, 'failed_write_probe_pk')).toBe(true);
    expect(await t.db.query('SELECT id FROM failed_write_probe ORDER BY id')).toEqual([{ id: 1 }]);
    // The connection is out of the failed transactions: the next one commits.
    await t.db.transaction(async () => t.db.write('INSERT INTO failed_write_probe VALUES (5)'));
    expect(await t.db.query('SELECT id FROM failed_write_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 5 }]);
  });

  it('a write outside a transaction throws and sends nothing: no COMMIT would report its failure', async () => {
    await t.db.exec('CREATE TABLE lone_write_probe (id int PRIMARY KEY)');
    expect(() => t.db.write('INSERT INTO lone_write_probe VALUES (1)')).toThrow(/outside a transaction/);
    // Nor once the transaction it was made in has ended.
    let late!: () => void;
    await t.db.transaction(async () => {
      late = () => t.db.write('INSERT INTO lone_write_probe VALUES (2)');
    });
    expect(late).toThrow(/outside a transaction/);
    expect(await t.db.query('SELECT * FROM lone_write_probe')).toEqual([]);
  });

  it('a unique violation carries its SQLSTATE and constraint', async () => {
    await t.db.exec('CREATE TABLE uniq_probe (id int CONSTRAINT uniq_probe_pk PRIMARY KEY)');
    await t.db.query('INSERT INTO uniq_probe VALUES (1)');
    const err = await t.db.query('INSERT INTO uniq_probe VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DbError);
    expect(isUniqueViolation(err, 'uniq_probe_pk')).toBe(true);
  });

  it('int8 columns come back as numbers and timestamptz as dates on both engines', async () => {
    const [row] = await t.db.query<{ n: number; at: Date }>(`SELECT 9007199254740991::int8 AS n, now() AS at`);
    expect(row!.n).toBe(Number.MAX_SAFE_INTEGER);
    expect(row!.at).toBeInstanceOf(Date);
  });
});

describe.skipIf(onPostgres)('embedded engine', () => {
  it('a transaction whose BEGIN fails rejects with its error and stores nothing', async () => {
    await t.db.exec('CREATE TABLE begin_probe (id int PRIMARY KEY)');
    // A block left open and aborted by hand makes the next BEGIN fail (25P02).
    await t.db.exec('BEGIN');
    await t.db.query('SELECT 1 / 0').catch(() => undefined);
    const failed = await t.db.transaction(() => t.db.query('INSERT INTO begin_probe VALUES (1)')).catch((e: unknown) => e);
    await t.db.exec('ROLLBACK');
    expect(failed).toBeInstanceOf(DbError);
    expect((failed as DbError).code).toBe('25P02');
    expect(await t.db.query('SELECT * FROM begin_probe')).toEqual([]);
    await t.db.transaction(() => t.db.query('INSERT INTO begin_probe VALUES (2)'));
    expect(await t.db.query('SELECT * FROM begin_probe')).toEqual([{ id: 2 }]);
  });

  it('runs queries off the main thread: a request is answered while a long query runs', async () => {
    const order: string[] = [];
    const slow = t.db.query('SELECT pg_sleep(1)').then(() => order.push('slow query'));
    await new Promise((r) => setTimeout(r, 50));
    const res = await t.request('GET', '/healthz');
    order.push('healthz');
    await slow;
    expect(res.status).toBe(200);
    expect(order).toEqual(['healthz', 'slow query']);
  });
});
