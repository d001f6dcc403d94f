import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { runCli } from './cli.js';
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

/**
 * One orgctl installation for a whole test file (from beforeAll): a data directory in `dir`, or a
 * fresh PostgreSQL database on PostgreSQL, and its organization `acme` with the owner's key.
 * `remove` drops it; the caller runs it from afterAll.
 */
export async function fileInstallation(dir: string): Promise<{ env: Record<string, string>; ownerKey: string; remove: () => Promise<void> }> {
  let env: Record<string, string>;
  let remove = async () => undefined as void;
  if (onPostgres) {
    const db = await createPostgresDatabase();
    env = { DATABASE_URL: db.url };
    remove = () => db.drop();
  } else env = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' };
  const init = await runCli(['init', '--org', 'acme', '--owner-email', 'owner@acme.test', '--json'], env);
  if (init.code !== 0) throw new Error(`orgctl init failed: ${init.stderr}`);
  return { env, ownerKey: (JSON.parse(init.stdout) as { apiKey: string }).apiKey, remove };
}
