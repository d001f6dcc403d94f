import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { TestClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/config.js';
import { loadMigrations, migrate } from '../../src/core/db/migrate.js';
import { IdentityService } from '../../src/core/identity/service.js';
import { createEmptyDb, organizationOnOldSchema } from '../helpers/test-db.js';
import { event, tokens } from './fixture.js';
import { onCleanup } from '../helpers/cleanup.js';

/*
 * Migration 0076 gives each organization's days the sum of their user-day credits, which its
 * budget's alerts and its use in the allowance then read. Today is 2026-11-20. Before the
 * migration, user-day rows as ingestion wrote them (credit units are 1/10000 credit):
 *   owner: 3,000,000 credits on 10-31 (last month), 1,000,000 on 11-02, 250,000 on 11-19
 *   ana:   2,000,000 credits on 11-02
 * 11-02 has a day version already (its caches were kept), 11-19 has none. November so far:
 * 3,250,000. With a budget of 4,000,000, 90 % is 3,600,000: 300,000 more credits today do not
 * reach it (3,550,000), 100,000 after them do (3,650,000).
 */
const clock = new TestClock(Date.parse('2026-11-20T12:00:00Z'));

describe('migration 0076', () => {
  it("gives each day the organization's credits, as its budget's alerts and its allowance read them, and ingestion adds to them", async () => {
    const created = await createEmptyDb();
    onCleanup(created.drop);
    const db = created.db;
    await migrate(
      db,
      loadMigrations().filter((m) => m.version < 76),
    );
    const identity = new IdentityService({ db });
    const org = await organizationOnOldSchema(db, { name: 'old-credits', ownerEmail: 'owner@old.test' });
    const ana = await identity.addUser({ orgId: org.orgId, email: 'ana@old.test', role: 'member' });
    const units = (credits: number) => String(credits * 10_000);
    for (const [day, user, credits] of [
      ['2026-10-31', org.userId, 3_000_000],
      ['2026-11-02', org.userId, 1_000_000],
      ['2026-11-02', ana.id, 2_000_000],
      ['2026-11-19', org.userId, 250_000],
    ] as const) {
      await db.query(`INSERT INTO analytics_user_day (org_id, day, user_id, events, credit_units) VALUES ($1, $2, $3, 1, $4)`, [
        org.orgId,
        day,
        user,
        units(credits),
      ]);
    }
    await db.query(`INSERT INTO analytics_day_version (org_id, day, version) VALUES ($1, '2026-11-02', nextval('analytics_day_version_seq'))`, [org.orgId]);
    expect(await migrate(db)).toContain('0076_organization_day_credits');

    const app = await buildApp(loadConfig({}, { logLevel: 'silent', overloadMaxEventLoopDelayMs: 0 }), { db, clock }, ['api']);
    onCleanup(() => app.close());
    const call = async <T>(method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown): Promise<T> => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${org.apiKey}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return JSON.parse(res.body) as T;
    };
    const organizationUsed = async () => (await call<{ organization: { used: number } }>('GET', '/api/v0/usage/allowance')).organization.used;
    const alerts = async () => (await call<{ alerts: { scope: string; threshold: number; used: number }[] }>('GET', '/api/v0/alerts')).alerts;
    const spend = (id: string, credits: number) =>
      call('POST', '/api/v1/telemetry/events', {
        events: [{ ...event(org.userId, 'model_request', '2026-11-20T11:00:00Z', 'terminal-ui', tokens('unknown-model', 'standard', credits, 0, 0, 0)), id }],
      });

    expect(await organizationUsed()).toBe(3_250_000);
    await call('PUT', '/api/v0/organization/alerts/settings', {
      personThresholds: [100],
      teamThresholds: [100],
      organizationThresholds: [90],
      organizationBudget: 4_000_000,
    });
    await spend('first', 300_000);
    expect(await organizationUsed()).toBe(3_550_000);
    expect(await alerts()).toEqual([]);
    await spend('second', 100_000);
    expect(await organizationUsed()).toBe(3_650_000);
    expect((await alerts()).map((a) => [a.scope, a.threshold, a.used])).toEqual([['organization', 90, 3_650_000]]);
  });
});
