import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { onCleanup } from './cleanup.js';
import { runCli } from './cli.js';
import { createPostgresDatabase, onPostgres } from './test-db.js';

/**
 * The environment of one orgctl installation for a process test: a data directory, or a
 * PostgreSQL database of its own when the lane runs on PostgreSQL. It starts migrated, a copy of
 * the template (global-setup.ts), as `orgctl migrate` would leave it; `empty` starts it with
 * nothing, for what a first start on an empty database does. Removed when the test ends, or the
 * file when made outside a test (cleanup.ts).
 */
export async function installation(opts: { empty?: boolean } = {}): Promise<Record<string, string>> {
  if (onPostgres) {
    const db = await createPostgresDatabase(opts.empty ? undefined : inject('postgresTemplate'));
    onCleanup(() => db.drop());
    return { DATABASE_URL: db.url };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-install-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  if (!opts.empty) cpSync(inject('installationTemplate'), path.join(dir, 'pgdata'), { recursive: true });
  return { DATA_DIR: dir, DATABASE_URL: '' };
}

/** An installation (see above) with organization `acme`, made by `orgctl init`, and its owner's key. */
export async function orgInstallation(): Promise<{ env: Record<string, string>; ownerKey: string }> {
  const env = await installation();
  const init = await runCli(['init', '--org', 'acme', '--owner-email', 'owner@acme.test', '--json'], env);
  if (init.code !== 0) throw new Error(`orgctl init failed: ${init.stderr}`);
  return { env, ownerKey: (JSON.parse(init.stdout) as { apiKey: string }).apiKey };
}
