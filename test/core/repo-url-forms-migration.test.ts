import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { OperatorIdentity } from '../../src/core/identity/operator.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { withoutCredentials } from '../../src/core/net/repo-id.js';
import { createEmptyDb } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0081 takes the credentials out of the scp-like and bare repository URLs (and their
// ids) stored before core's parser read every form.

async function emptyDb(): Promise<Db> {
  const created = await createEmptyDb();
  onCleanup(created.drop);
  return created.db;
}

// Each as stored before, with the id the parser then made of it.
const URLS = [
  'SECRET-f1@git.acme.io:team/api.git',
  'deploy:SECRET-f2@git.acme.io:team/api.git',
  'git@git.acme.io:team/api.git?token=SECRET-f3',
  'git:SECRET-f4@git.acme.io:team/api.git',
  'git.acme.io/team/api?token=SECRET-f5',
  'git.acme.io/team/api.git#SECRET-f6',
  'ssh://SECRET-f7@git.acme.io/team/api',
  'ssh://git@git.acme.io/team/api',
  'git@git.acme.io:team/api.git',
  'https://git.acme.io/team/api',
];
const ID = 'git.acme.io/team/api';
// The ids the parser made of them, lower case, the query and fragment of scp-like and bare URLs kept.
const OLD_IDS = URLS.map((_, i) => ({ 2: `${ID}.git?token=secret-f3`, 4: `${ID}?token=secret-f5`, 5: `${ID}.git#secret-f6` })[i] ?? ID);

describe('migration 0081', () => {
  it('strips user information, query and fragment from scp-like and bare repository URLs and from repository ids, merging rollup rows', async () => {
    const db = await emptyDb();
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 81),
    );
    const operator = new OperatorIdentity({ db, identity: new IdentityService({ db }) });
    const org = await operator.createOrganization({ name: 'old-forms', ownerEmail: 'owner@old.test' });
    for (const [i, url] of URLS.entries()) {
      await db.query(
        `INSERT INTO readiness_reports (report_id, org_id, created_at, repo_id, repo_url, apps, report)
         VALUES ($1, $2, $3, $4, $5, '{}', '{"lint_config":{"numerator":1,"denominator":1,"rationale":""}}')`,
        [randomUUID(), org.orgId, 1_700_000_000_000 + i, OLD_IDS[i], url],
      );
      await db.query(
        `INSERT INTO ci_pull_requests (id, org_id, host_kind, repo_id, repo_url, number, url, action, workflow_path, branch, base_branch, commit_sha, title, description, created_at)
         VALUES ($1, $2, 'git', $3, $4, $5, 'u', 'create', '.github/workflows/ci.yml', $6, 'main', 'abc', 't', 'd', 0)`,
        [randomUUID(), org.orgId, OLD_IDS[i], url, i + 1, `b${i}`],
      );
      await db.query(`INSERT INTO analytics_session_repo (org_id, user_id, session_id, repo_id, repo_url, rank) VALUES ($1, $2, $3, $4, $5, 1)`, [
        org.orgId,
        org.userId,
        `s${i}`,
        OLD_IDS[i],
        url,
      ]);
      if (i === 0 || OLD_IDS[i] !== ID)
        await db.query(
          `INSERT INTO analytics_repo_day (org_id, day, repo_id, user_id, events, credit_units, tool_calls) VALUES ($1, '2026-03-01', $2, $3, 1, 10, $4)`,
          [org.orgId, OLD_IDS[i], org.userId, i],
        );
      await db.query(`INSERT INTO webhook_events (id, org_id, type, body, created_at) VALUES ($1, $2, 'readiness.report_created', $3, now())`, [
        `evt_${i}`,
        org.orgId,
        JSON.stringify({ type: 'readiness.report_created', timestamp: 't', data: { reportId: 'r', repoId: ID, repoUrl: url, level: 1, passRate: 0.5 } }),
      ]);
    }
    const computer = randomUUID();
    await db.query(
      `INSERT INTO computers (id, org_id, name, provider, owner_kind, owner_id, repos) VALUES ($1, $2, 'box', 'byom', 'user', $3, $4::text::jsonb)`,
      [computer, org.orgId, org.userId, JSON.stringify(URLS)],
    );
    await db.query(`INSERT INTO computer_steps (computer_id, step_id, position, status, log, error) VALUES ($1, 'clone-repos', 1, 'failed', $2, $3)`, [
      computer,
      `$ git clone ${URLS[0]} /home/me/api\nCloning into 'api'...\n$ git clone ${URLS[1]} /home/me/api-2\n`,
      `git clone ${URLS[4]} failed (exit 128)`,
    ]);

    expect(await migrate(db)).toContain('0081_repo_urls_every_form_without_credentials');

    const clean = URLS.map((u) => withoutCredentials(u));
    expect(clean).not.toContain(undefined);
    const reports = await db.query<{ repo_url: string; repo_id: string }>(`SELECT repo_url, repo_id FROM readiness_reports ORDER BY created_at`);
    expect(reports.map((r) => r.repo_url)).toEqual(clean);
    expect(reports.map((r) => r.repo_id)).toEqual(URLS.map(() => ID));
    const prs = await db.query<{ repo_url: string; repo_id: string }>(`SELECT repo_url, repo_id FROM ci_pull_requests ORDER BY number`);
    expect(prs.map((r) => r.repo_url)).toEqual(clean);
    expect(prs.map((r) => r.repo_id)).toEqual(URLS.map(() => ID));
    const sessions = await db.query<{ repo_url: string; repo_id: string }>(`SELECT repo_url, repo_id FROM analytics_session_repo ORDER BY session_id`);
    expect(sessions.map((r) => r.repo_url)).toEqual(clean);
    expect(sessions.map((r) => r.repo_id)).toEqual(URLS.map(() => ID));
    // One row of the rollup, the sums of the clean id's and the three others'.
    const days = await db.query<{ repo_id: string; events: string; credit_units: string; tool_calls: string }>(
      `SELECT repo_id, events::text, credit_units::text, tool_calls::text FROM analytics_repo_day`,
    );
    expect(days).toEqual([{ repo_id: ID, events: '4', credit_units: '40', tool_calls: '11' }]);
    const [box] = await db.query<{ repos: string[] }>(`SELECT repos FROM computers WHERE id = $1`, [computer]);
    expect(box!.repos).toEqual(clean);
    const [step] = await db.query<{ log: string; error: string }>(`SELECT log, error FROM computer_steps WHERE computer_id = $1`, [computer]);
    expect(step!.log).toBe(`$ git clone ${clean[0]} /home/me/api\nCloning into 'api'...\n$ git clone ${clean[1]} /home/me/api-2\n`);
    expect(step!.error).toBe(`git clone ${clean[4]} failed (exit 128)`);
    const events = await db.query<{ body: string }>(`SELECT body FROM webhook_events ORDER BY id`);
    expect(events.map((e) => (JSON.parse(e.body) as { data: { repoUrl: string } }).data.repoUrl)).toEqual(clean);

    const everything = JSON.stringify([reports, prs, sessions, days, box, step, events]);
    expect(everything.toLowerCase()).not.toContain('secret');
  }, 120_000);
});
