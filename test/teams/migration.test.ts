import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/core/db/db.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { teamsStore } from '../../src/teams/store.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { onCleanup } from '../helpers/cleanup.js';

// Migration 0060 adds teams to a database that already has organizations and users; what its
// constraints hold is checked here, below the API, where the budget cannot be set yet.

describe('migration 0060', () => {
  it('applies over existing data; keeps names unique among teams not deleted, budgets at least 1,000,000, and members only while they exist', async () => {
    const created = await createEmptyDb();
    onCleanup(created.drop);
    const db = created.db;
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 60),
    );
    const org = await organizationOnOldSchema(db, { name: 'before-teams', ownerEmail: 'owner@before.test' });
    expect(await migrate(db)).toContain('0060_teams');

    const now = new Date('2026-11-27T12:00:00Z');
    const team = (name: string, budget: number | null = null) =>
      db.query(
        `INSERT INTO teams (id, org_id, name, name_key, monthly_budget_credits, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
        [randomUUID(), org.orgId, name, name.toLowerCase(), budget, now],
      );
    const [first] = (await team('Platform', 1_000_000)) as [{ id: string }];
    const clash = await team('platform').catch((e: unknown) => e);
    expect(isUniqueViolation(clash, 'teams_org_name_key')).toBe(true);
    await db.query(`UPDATE teams SET deleted_at = $2 WHERE id = $1`, [first.id, now]);
    expect(await team('platform')).toHaveLength(1);
    await expect(team('Cheap', 999_999)).rejects.toThrow();
    await expect(team('')).rejects.toThrow();
    await expect(team('x'.repeat(101))).rejects.toThrow();

    await db.query(`INSERT INTO team_members (team_id, principal_id, added_at) VALUES ($1, $2, $3)`, [first.id, org.userId, now]);
    await expect(db.query(`INSERT INTO team_members (team_id, principal_id, added_at) VALUES ($1, $2, $3)`, [first.id, randomUUID(), now])).rejects.toThrow();
    // A user removed between the service's check and the insert: their 404, not a 500.
    await expect(teamsStore.addMembers(db, first.id, [randomUUID()], now)).rejects.toMatchObject({ code: 'user_not_found', status: 404 });
    await db.query(`DELETE FROM principals WHERE id = $1`, [org.userId]);
    expect(await db.query(`SELECT 1 FROM team_members WHERE team_id = $1`, [first.id])).toEqual([]);
  });
});
