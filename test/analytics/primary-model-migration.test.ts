import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { query } from './fixture.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0013 fills in the primary model of user-days stored before ingestion kept it.

async function emptyDb(): Promise<Db> {
  const created = await createEmptyDb();
  onCleanup(created.drop);
  return created.db;
}

describe('migration 0013', () => {
  it('gives the user-days stored before it their primary model, as /users shows it', async () => {
    const db = await emptyDb();
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 13),
    );
    const org = await organizationOnOldSchema(db, { name: 'old-data', ownerEmail: 'owner@old.test' });
    // Rollup rows as ingestion wrote them before 0013: 07-01 gpt-5 wins over its two tiers
    // (60 + 50 > 100); on 07-02 the tiers of gpt-5 tie, and standard goes first.
    for (const day of ['2026-07-01', '2026-07-02']) {
      await db.query(`INSERT INTO analytics_user_day (org_id, day, user_id, events) VALUES ($1, $2, $3, 1)`, [org.orgId, day, org.userId]);
    }
    for (const [day, model, tier, units] of [
      ['2026-07-01', 'claude-sonnet-4-5', 'standard', 100],
      ['2026-07-01', 'gpt-5', 'standard', 60],
      ['2026-07-01', 'gpt-5', 'thinking', 50],
      ['2026-07-02', 'gpt-5', 'thinking', 70],
      ['2026-07-02', 'gpt-5', 'standard', 70],
    ] as const) {
      await db.query(`INSERT INTO analytics_user_day_model (org_id, day, user_id, model, tier, requests, credit_units) VALUES ($1, $2, $3, $4, $5, 1, $6)`, [
        org.orgId,
        day,
        org.userId,
        model,
        tier,
        units,
      ]);
    }
    expect(await migrate(db)).toContain('0013_user_day_primary_model');

    const app = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { db }, ['api']);
    onCleanup(() => app.close());
    const res = await app.inject({
      method: 'GET',
      url: query('users', { startDate: '2026-07-01', endDate: '2026-07-02' }),
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (JSON.parse(res.body) as { data: { date: string; primary_model: string; primary_model_tier: string }[] }).data;
    expect(rows.map((r) => [r.date, r.primary_model, r.primary_model_tier])).toEqual([
      ['2026-07-01', 'gpt-5', 'standard'],
      ['2026-07-02', 'gpt-5', 'standard'],
    ]);
  });
});
