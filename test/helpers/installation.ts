import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDb } from '../../src/core/db/open-db.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import type { Role } from '../../src/core/identity/roles.js';
import type { Scope } from '../../src/core/identity/scopes.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { onCleanup } from './cleanup.js';
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

/**
 * Someone `orgInstallation` adds to the organization: a user (a member unless `role` says) or a
 * service account; with a key unless `key` is false, of the whole role unless `scopes` narrow it.
 */
export type Someone =
  { email: string; role?: Role; key?: boolean } | { serviceAccount: string; role: 'manager' | 'member'; key?: boolean; scopes?: readonly Scope[] };

/**
 * An installation (see above) with organization `acme` (owner `owner@acme.test`) and `people`
 * in it, and their keys by email or service account name. They are made here, through the
 * operator's identity service on the installation's database, as `orgctl init`, `users add`,
 * `service-accounts add` and `keys create --local` make them: those commands are proven as
 * processes in test/e2e, and a process each costs about 3 s of CPU (the embedded database
 * starting) where one database opened here serves them all.
 */
export async function orgInstallation(people: Someone[] = []): Promise<{ env: Record<string, string>; ownerKey: string; keys: Record<string, string> }> {
  const env = await installation();
  const db = await openDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR ?? '', databasePoolSize: 1 });
  try {
    const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
    const { orgId, apiKey } = await operator.createOrganization({ name: 'acme', ownerEmail: 'owner@acme.test' });
    const keys: Record<string, string> = {};
    for (const p of people) {
      const [name, id] =
        'email' in p
          ? [p.email, (await operator.addUser({ orgId, email: p.email, role: p.role ?? 'member' })).id]
          : [p.serviceAccount, (await operator.addServiceAccount({ orgId, name: p.serviceAccount, role: p.role })).id];
      const scopes = 'scopes' in p ? p.scopes : undefined;
      if (p.key !== false) keys[name] = (await operator.createKey(orgId, { id }, undefined, scopes)).secret;
    }
    return { env, ownerKey: apiKey, keys };
  } finally {
    await db.close();
  }
}
