/**
 * Readiness report pages: the cost of a page must not grow with its depth (keyset pagination
 * on (created_at, report_id), one index range per page), filtered by repository or not.
 * Seeds N reports over 10 repositories (a third of them sharing one millisecond), then times
 * sequential GETs through the HTTP stack (inject) for the first page and for a page near the end.
 * Usage: npm run bench:readiness -- [--reports 50000] [--requests 300] [--postgres URL]
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/core/db/db.js';
import { migrate } from '../src/core/db/migrate.js';
import { PgliteDb } from '../src/core/db/pglite-engine.js';
import { PostgresDb } from '../src/core/db/postgres-engine.js';
import { OperatorIdentity } from '../src/core/identity/operator.js';
import { IdentityService } from '../src/core/identity/service.js';

const { values } = parseArgs({
  options: { reports: { type: 'string', default: '50000' }, requests: { type: 'string', default: '300' }, postgres: { type: 'string' } },
});
const N = Number(values.reports);
const REQUESTS = Number(values.requests);

async function run(name: string, db: Db) {
  await migrate(db);
  const { apiKey, orgId } = await new OperatorIdentity({ db, identity: new IdentityService({ db }) }).createOrganization({
    name: 'bench',
    ownerEmail: `owner-${Date.now()}@example.com`,
  });
  await db.query(
    `INSERT INTO readiness_reports (report_id, org_id, created_at, repo_id, repo_url, apps, report)
     SELECT gen_random_uuid(), $1, CASE WHEN i % 3 = 0 THEN 1790000000000 ELSE 1790000000000 + i END,
            'github.com/acme/repo' || (i % 10), 'https://github.com/acme/repo' || (i % 10),
            '{"web": {"description": "site"}}'::json, '{"ci": {"numerator": 1, "denominator": 2, "rationale": "x"}}'::json
     FROM generate_series(1, $2::int) AS i`,
    [orgId, N],
  );
  await db.query(`ANALYZE readiness_reports`);
  const app = await buildApp(loadConfig({}, { logLevel: 'silent', rateLimits: false }), { db });
  await app.ready();
  const headers = { authorization: `Bearer ${apiKey}` };
  const get = async (query: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/organization/maturity-level-reports?${query}`, headers });
    if (res.statusCode !== 200) throw new Error(res.body);
    return (JSON.parse(res.body) as { reports: { reportId: string }[] }).reports;
  };
  const cursorAt = async (position: number, filter: string) => {
    const rows = await db.query<{ report_id: string }>(
      `SELECT report_id FROM readiness_reports WHERE org_id = $1 AND ($2::text = '' OR repo_id = $2::text) ORDER BY created_at DESC, report_id OFFSET $3 LIMIT 1`,
      [orgId, filter, position],
    );
    return rows[0]!.report_id;
  };
  const time = async (label: string, query: string) => {
    for (let i = 0; i < 20; i++) await get(query);
    const ms: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = process.hrtime.bigint();
      await get(query);
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    ms.sort((a, b) => a - b);
    const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(2);
    console.log(`${name.padEnd(10)} ${label.padEnd(44)} p50 ${p(0.5).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms`);
  };
  await time('first page, limit 100', 'limit=100');
  await time(`page after report ${N - 200}, limit 100`, `limit=100&startAfter=${await cursorAt(N - 200, '')}`);
  await time('one repository, first page, limit 100', 'limit=100&repoId=github.com/acme/repo3');
  await time(
    `one repository, after report ${N / 10 - 200}, limit 100`,
    `limit=100&repoId=github.com/acme/repo3&startAfter=${await cursorAt(N / 10 - 200, 'github.com/acme/repo3')}`,
  );
  await app.close();
}

const pglite = await PgliteDb.open({ dataDir: 'memory://' });
console.log(`${N} reports, ${REQUESTS} sequential requests per row`);
await run('pglite', pglite);
await pglite.close();
if (values.postgres) {
  const pg = new PostgresDb({ url: values.postgres, poolSize: 4 });
  try {
    await pg.query(`DROP SCHEMA IF EXISTS bench_readiness CASCADE`);
    await pg.query(`CREATE SCHEMA bench_readiness`);
  } finally {
    await pg.close();
  }
  const url = new URL(values.postgres);
  url.searchParams.set('options', '-c search_path=bench_readiness');
  const db = new PostgresDb({ url: url.toString(), poolSize: 4 });
  try {
    await run('postgres', db);
    await db.query(`DROP SCHEMA bench_readiness CASCADE`);
  } finally {
    await db.close();
  }
}
