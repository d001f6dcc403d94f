import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { withoutCredentials } from '../../src/core/net/repo-id.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0058 takes the credentials out of the repository URLs stored before core's parser did.

async function emptyDb(): Promise<Db> {
  const created = await createEmptyDb();
  onCleanup(created.drop);
  return created.db;
}

// Each as stored before, and as core's parser would keep it now.
const URLS = [
  'https://user:TOKEN-m1@github.com/acme/api.git',
  'https://TOKEN-m2@github.com/acme/api',
  'http://a:TOKEN-m3@b@git.acme.io/x/y',
  ' https://github.com/acme/api?private_token=TOKEN-m4#top ',
  'ssh://git:TOKEN-m5@github.com:22/acme/api',
  'git://anon-TOKEN-m6@git.acme.io/x/y',
  'file://me:TOKEN-m7@localhost/srv/git/app.git',
  'ssh://git@github.com/acme/api',
  'git@github.com:acme/api.git',
  'https://github.com/acme/api',
];

describe('migration 0058', () => {
  it('strips user information from the repository URLs of readiness reports, computers (and their clone logs) and CI pull requests, as the parser does', async () => {
    const db = await emptyDb();
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 58),
    );
    const org = await organizationOnOldSchema(db, { name: 'old-urls', ownerEmail: 'owner@old.test' });
    for (const [i, url] of URLS.entries()) {
      await db.query(
        `INSERT INTO readiness_reports (report_id, org_id, created_at, repo_id, repo_url, apps, report)
         VALUES ($1, $2, $3, 'github.com/acme/api', $4, '{}', '{"lint_config":{"numerator":1,"denominator":1,"rationale":""}}')`,
        [randomUUID(), org.orgId, 1_700_000_000_000 + i, url],
      );
      await db.query(
        `INSERT INTO ci_pull_requests (id, org_id, host_kind, repo_id, repo_url, number, url, action, workflow_path, branch, base_branch, commit_sha, title, description, created_at)
         VALUES ($1, $2, 'git', 'git.acme.io/x/y', $3, $4, 'u', 'create', '.github/workflows/ci.yml', $5, 'main', 'abc', 't', 'd', 0)`,
        [randomUUID(), org.orgId, url, i + 1, `b${i}`],
      );
    }
    const computer = randomUUID();
    await db.query(
      `INSERT INTO computers (id, org_id, name, provider, owner_kind, owner_id, repos) VALUES ($1, $2, 'box', 'byom', 'user', $3, $4::text::jsonb)`,
      [computer, org.orgId, org.userId, JSON.stringify(URLS)],
    );
    await db.query(`INSERT INTO computer_steps (computer_id, step_id, position, status, log, error) VALUES ($1, 'clone-repos', 1, 'failed', $2, $3)`, [
      computer,
      `$ git clone ${URLS[0]} /home/me/api\nCloning into 'api'...\n$ git clone ${URLS[4]} /home/me/api-2\n`,
      `git clone ${URLS[1]} failed (exit 128)`,
    ]);

    expect(await migrate(db)).toContain('0058_repo_urls_without_credentials');

    const clean = URLS.map((u) => withoutCredentials(u));
    expect(clean).not.toContain(undefined);
    const reports = await db.query<{ repo_url: string }>(`SELECT repo_url FROM readiness_reports ORDER BY created_at`);
    expect(reports.map((r) => r.repo_url)).toEqual(clean);
    const prs = await db.query<{ repo_url: string }>(`SELECT repo_url FROM ci_pull_requests ORDER BY number`);
    expect(prs.map((r) => r.repo_url)).toEqual(clean);
    const [box] = await db.query<{ repos: string[] }>(`SELECT repos FROM computers WHERE id = $1`, [computer]);
    expect(box!.repos).toEqual(clean);
    const [step] = await db.query<{ log: string; error: string }>(`SELECT log, error FROM computer_steps WHERE computer_id = $1`, [computer]);
    expect(step!.log).toBe(
      `$ git clone https://github.com/acme/api.git /home/me/api\nCloning into 'api'...\n$ git clone ssh://github.com:22/acme/api /home/me/api-2\n`,
    );
    expect(step!.error).toBe('git clone https://github.com/acme/api failed (exit 128)');

    // And as the API shows them, to a guest.
    const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
    const guest = await operator.addUser({ orgId: org.orgId, email: 'guest@old.test', role: 'guest' });
    const { secret } = await operator.createKey(org.orgId, { id: guest.id });
    const app = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { db }, ['app']);
    onCleanup(() => app.close());
    const res = await app.inject({ method: 'GET', url: '/api/organization/maturity-level-reports?limit=100', headers: { authorization: `Bearer ${secret}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('TOKEN');
  });
});
