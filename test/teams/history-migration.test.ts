import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0064 starts the teams' history (analytics by team) from the teams that already exist:
// their members since they were added, a deleted team's until its deletion, the current name
// since the team was made. Days are UTC whatever the session's time zone.

describe('migration 0064', () => {
  it('backfills membership spans and names from the teams before it', async () => {
    const created = await createEmptyDb();
    onCleanup(created.drop);
    const db = created.db;
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 64),
    );
    const org = await organizationOnOldSchema(db, { name: 'before-history', ownerEmail: 'owner@history.test' });
    const team = async (name: string, createdAt: string, deletedAt: string | null) => {
      const id = randomUUID();
      await db.query(`INSERT INTO teams (id, org_id, name, name_key, created_at, updated_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $5, $6)`, [
        id,
        org.orgId,
        name,
        name.toLowerCase(),
        createdAt,
        deletedAt,
      ]);
      // Added a minute before midnight UTC, written with an offset: the day is the UTC one.
      await db.query(`INSERT INTO team_members (team_id, principal_id, added_at) VALUES ($1, $2, $3)`, [id, org.userId, '2026-11-02T01:59:00+02:00']);
      return id;
    };
    const live = await team('Live', '2026-11-01T10:00:00Z', null);
    const gone = await team('Gone', '2026-11-01T10:00:00Z', '2026-11-20T23:30:00-05:00');
    await db.query(`SET TIME ZONE 'Pacific/Auckland'`).catch(() => undefined);
    expect(await migrate(db)).toContain('0064_team_history');
    const spans = await db.query<{ team_id: string; first_day: string; last_day: string | null }>(
      `SELECT team_id, first_day::text AS first_day, last_day::text AS last_day FROM team_membership_spans ORDER BY first_day, last_day NULLS LAST`,
    );
    expect(spans.map((x) => [x.team_id, x.first_day, x.last_day]).sort()).toEqual(
      [
        [live, '2026-11-01', null],
        [gone, '2026-11-01', '2026-11-21'],
      ].sort(),
    );
    const names = await db.query<{ team_id: string; from_day: string; name: string }>(`SELECT team_id, from_day::text AS from_day, name FROM team_names`);
    expect(names.map((x) => [x.team_id, x.from_day, x.name]).sort()).toEqual(
      [
        [live, '2026-11-01', 'Live'],
        [gone, '2026-11-01', 'Gone'],
      ].sort(),
    );
  });
});
