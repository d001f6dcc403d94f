import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createPostgresDatabase, onPostgres } from './test-db.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Runs `fn` after the current test, before the cleanups registered earlier (last in, first out). */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

/**
 * The environment of one orgctl installation for a process test: a temp data directory, or a
 * fresh PostgreSQL database when the suite runs on PostgreSQL. Removed after the test.
 */
export async function installation(): Promise<Record<string, string>> {
  if (onPostgres) {
    const db = await createPostgresDatabase();
    cleanups.push(() => db.drop());
    return { DATABASE_URL: db.url };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-install-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir, DATABASE_URL: '' };
}
