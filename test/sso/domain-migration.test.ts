import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { createEmptyDb } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0079: domains configured before they were verified keep signing in after the upgrade.

describe('migration 0079', () => {
  it('keeps every domain configured before it verified for its organization', async () => {
    const created = await createEmptyDb();
    onCleanup(created.drop);
    const { db } = created;
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 79),
    );
    const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
    const org = await operator.createOrganization({ name: 'before', ownerEmail: 'owner@before.test' });
    await db.query(
      `INSERT INTO sso_configs (org_id, issuer, client_id, client_secret, groups_claim, created_at, updated_at) VALUES ($1, 'https://idp.before.test', 'c', 's', 'groups', now(), now())`,
      [org.orgId],
    );
    await db.query(`INSERT INTO sso_domains (domain, org_id) VALUES ('before.test', $1)`, [org.orgId]);
    await migrate(db);

    const app = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { db });
    onCleanup(() => app.close());
    const get = await app.inject({ method: 'GET', url: '/api/v0/organization/sso', headers: { authorization: `Bearer ${org.apiKey}` } });
    expect(get.json()).toMatchObject({
      allowedDomains: ['before.test'],
      domains: [{ domain: 'before.test', verified: true, verifiedBy: 'upgrade', verificationToken: null }],
    });
  }, 120_000);
});
