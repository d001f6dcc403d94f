import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0059 applies the bounds of analytics/bounds.ts to the days stored before them.

async function emptyDb(): Promise<Db> {
  const created = await createEmptyDb();
  onCleanup(created.drop);
  return created.db;
}

const DAY = '2026-01-15';
const OTHER_DAY = '2026-01-16';

describe('migration 0059', () => {
  it("moves a stored day's names past the bounds into (other), exactly, the most counted kept; a user-day's models past 50 and languages past 50 too; the days changed get new versions", async () => {
    const db = await emptyDb();
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 59),
    );
    const org = await organizationOnOldSchema(db, {
      name: 'old-names',
      ownerEmail: 'owner@old.test',
    });
    const user = org.userId;
    const counter = (day: string, kind: string, name: string, count: number, name2 = '', name3 = '') =>
      db.query(`INSERT INTO analytics_day_counter (org_id, day, kind, name, name2, name3, count) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        org.orgId,
        day,
        kind,
        name,
        name2,
        name3,
        count,
      ]);
    // 300 tools of 10 bytes each (3,000 bytes, under the byte bound): counts 1..300 and an (other) of 7.
    for (let i = 1; i <= 300; i++) await counter(DAY, 'tool', `tool-${String(i).padStart(5, '0')}`, i);
    await counter(DAY, 'tool', '(other)', 7);
    // 30 languages of 40 bytes each: the byte bound (1,000) keeps 25; the tie on count goes to the name.
    for (let i = 0; i < 30; i++) await counter(DAY, 'language', `${'l'.repeat(36)}-${String(i).padStart(3, '0')}`, 5);
    // Another day, within the bounds: left as it is.
    for (let i = 0; i < 10; i++) await counter(OTHER_DAY, 'tool', `kept-${i}`, 1);
    // 60 models on one user-day, credits 1..60; 70 languages on its row.
    for (let i = 1; i <= 60; i++)
      await db.query(
        `INSERT INTO analytics_user_day_model (org_id, day, user_id, model, tier, credit_units, requests, input_tokens) VALUES ($1, $2, $3, $4, 'standard', $5, 1, $5)`,
        [org.orgId, DAY, user, `model-${String(i).padStart(3, '0')}`, i],
      );
    const languages = Array.from({ length: 70 }, (_, i) => `lang-${String(i).padStart(3, '0')}`);
    await db.query(
      `INSERT INTO analytics_user_day (org_id, day, user_id, languages, primary_model, primary_model_tier) VALUES ($1, $2, $3, $4, 'model-060', 'standard')`,
      [org.orgId, DAY, user, [...languages].reverse()],
    );
    // Another user-day: 20 models of 150 bytes (13 fit in 2,000 bytes) and 14 languages of 100 (10 fit in 1,000).
    const second = randomUUID();
    for (let i = 0; i < 20; i++)
      await db.query(
        `INSERT INTO analytics_user_day_model (org_id, day, user_id, model, tier, credit_units, requests) VALUES ($1, $2, $3, $4, 'standard', $5, 1)`,
        [org.orgId, DAY, second, `${String(i).padStart(2, '0')}-${'m'.repeat(147)}`, 100 - i],
      );
    const longLanguages = Array.from({ length: 14 }, (_, i) => `${String(i).padStart(2, '0')}${'l'.repeat(98)}`);
    await db.query(`INSERT INTO analytics_user_day (org_id, day, user_id, languages) VALUES ($1, $2, $3, $4)`, [org.orgId, DAY, second, longLanguages]);
    for (const day of [DAY, OTHER_DAY])
      await db.query(`INSERT INTO analytics_day_version (org_id, day, version) VALUES ($1, $2, nextval('analytics_day_version_seq'))`, [org.orgId, day]);

    expect(await migrate(db)).toContain('0059_bound_old_day_names');

    const names = async (day: string, kind: string) =>
      db.query<{ name: string; count: string }>(
        `SELECT name, count::text FROM analytics_day_counter WHERE org_id = $1 AND day = $2 AND kind = $3 ORDER BY name`,
        [org.orgId, day, kind],
      );
    const tools = await names(DAY, 'tool');
    const kept = tools.filter((t) => t.name !== '(other)');
    expect(kept.map((t) => Number(t.count)).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 101));
    expect(tools.find((t) => t.name === '(other)')!.count).toBe(String(7 + (100 * 101) / 2));
    const langs = await names(DAY, 'language');
    expect(langs.filter((l) => l.name !== '(other)').map((l) => l.name.slice(-3))).toEqual(Array.from({ length: 25 }, (_, i) => String(i).padStart(3, '0')));
    expect(langs.find((l) => l.name === '(other)')!.count).toBe('25');
    expect(await names(OTHER_DAY, 'tool')).toHaveLength(10);

    const models = await db.query<{ model: string; credit_units: string; requests: string; input_tokens: string }>(
      `SELECT model, credit_units::text, requests::text, input_tokens::text FROM analytics_user_day_model WHERE org_id = $1 AND user_id = $2 ORDER BY model`,
      [org.orgId, user],
    );
    expect(models).toHaveLength(51);
    expect(models.find((m) => m.model === '(other)')).toEqual({ model: '(other)', credit_units: '55', requests: '10', input_tokens: '55' });
    expect(models.some((m) => m.model === 'model-010')).toBe(false);
    expect(models.some((m) => m.model === 'model-011')).toBe(true);
    const secondModels = await db.query<{ model: string; credit_units: string }>(
      `SELECT model, credit_units::text FROM analytics_user_day_model WHERE org_id = $1 AND user_id = $2 ORDER BY analytics_user_day_model.credit_units DESC`,
      [org.orgId, second],
    );
    expect(secondModels.map((m) => m.model.slice(0, 2))).toEqual(['(o', ...Array.from({ length: 13 }, (_, i) => String(i).padStart(2, '0'))]);
    expect(secondModels[0]!.credit_units).toBe(String([13, 14, 15, 16, 17, 18, 19].reduce((s, i) => s + 100 - i, 0)));
    const [secondRow] = await db.query<{ languages: string[] }>(`SELECT languages FROM analytics_user_day WHERE user_id = $1`, [second]);
    expect(secondRow!.languages).toEqual(longLanguages.slice(0, 10));
    const [row] = await db.query<{ languages: string[]; primary_model: string }>(`SELECT languages, primary_model FROM analytics_user_day WHERE user_id = $1`, [
      user,
    ]);
    expect(row!.languages).toEqual(languages.slice(0, 50));
    expect(row!.primary_model).toBe('model-060');

    const versions = await db.query<{ day: string; version: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, version::text FROM analytics_day_version WHERE org_id = $1 ORDER BY day`,
      [org.orgId],
    );
    // As ingestion does, from the sequence: after every version given before.
    expect(versions.find((v) => v.day === DAY)!.version).toBe('3');
    expect(versions.find((v) => v.day === OTHER_DAY)!.version).toBe('2');
  });
});
