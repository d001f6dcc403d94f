import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PER_MINUTE } from '../../src/core/http/rate-limit-plans.js';
import { TestApp, type Org } from '../helpers/test-app.js';
import { expectScimError, GROUP, PATCH_OP, scim, scimToken, type ScimList, type ScimResource } from './scim-client.js';

// What one identity provider's requests may cost the service: the operations of a PATCH, the
// rows a list reads, and the requests a token makes a minute.
let t: TestApp;

beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

/** `n` people of the organization, made in one statement: SCIM sees every user of the organization. */
async function seedUsers(org: Org, n: number, prefix: string): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(
    `INSERT INTO principals (id, org_id, kind, email, name, role)
     SELECT gen_random_uuid(), $1, 'user', $2 || lpad(g::text, 6, '0') || '@bounds.test', 'User ' || g, 'member' FROM generate_series(1, $3::int) g
     RETURNING id`,
    [org.orgId, prefix, n],
  );
  return rows.map((r) => r.id);
}

const members = (g: ScimResource) => (g.members ?? []) as { value: string }[];

describe('PATCH operations', () => {
  let call: ReturnType<typeof scim>;
  let ids: string[];
  let others: string[];
  let group: string;

  beforeAll(async () => {
    const org = await t.createOrg('patch-bounds-org');
    call = scim(t, await scimToken(t, org));
    ids = await seedUsers(org, 1000, 'p');
    others = await seedUsers(org, 1000, 'q');
    const res = await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Everyone', members: ids.map((value) => ({ value })) });
    expect(res.status).toBe(201);
    group = res.body.id;
  });

  const patch = (Operations: unknown[]) => call('PATCH', `/Groups/${group}`, { schemas: [PATCH_OP], Operations });
  const timed = async (Operations: unknown[]) => {
    const started = performance.now();
    const res = await patch(Operations);
    expect(res.status).toBe(200);
    return { ms: performance.now() - started, body: res.body };
  };

  it('ServiceProviderConfig advertises the most operations a PATCH may carry', async () => {
    const config = await t.request<{ patch: { supported: boolean; maxOperations: number } }>('GET', '/scim/v2/ServiceProviderConfig');
    expect(config.body.patch).toEqual({ supported: true, maxOperations: 1000 });
  });

  it('a PATCH over that bound is refused whole with 413 in SCIM’s error shape', async () => {
    const res = await patch([
      ...ids.map((id) => ({ op: 'remove', path: `members[value eq "${id}"]` })),
      { op: 'replace', path: 'displayName', value: 'Renamed' },
    ]);
    expect(expectScimError(res, 413).detail).toContain('at most 1000 operations; this one has 1001');
    const after = await call('GET', `/Groups/${group}`);
    expect(after.body.displayName).toBe('Everyone');
    expect(members(after.body)).toHaveLength(1000);
  });

  it('1,000 removes by members[value eq "…"] over 1,000 members cost about what one remove of the same members does', async () => {
    // The worst case for testing each filter against each member: removes that match nobody
    // (a million tests, over a second with the event loop held). The baseline, in the same run: the
    // same removes as one operation with a value list.
    const one = [{ op: 'remove', path: 'members', value: others.map((value) => ({ value })) }];
    const many = others.map((id) => ({ op: 'remove', path: `members[value eq "${id}"]` }));
    // Alternated, the fastest of three each: the machine is shared, and the first runs compile the code.
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push({ baseline: await timed(one), filtered: await timed(many) });
    for (const run of runs) expect(members(run.filtered.body)).toHaveLength(1000);
    const baseline = { ms: Math.min(...runs.map((r) => r.baseline.ms)) };
    const filtered = { ms: Math.min(...runs.map((r) => r.filtered.ms)) };
    // Measured here: 1,213 ms against a baseline of 114 when each member was tested, 86 against 139 indexed.
    expect(filtered.ms, `baseline ${baseline.ms.toFixed(0)} ms`).toBeLessThan(Math.max(3 * baseline.ms, baseline.ms + 300));
    // And removes that match each member, in one PATCH.
    expect(members((await patch(ids.map((id) => ({ op: 'remove', path: `members[value eq "${id}"]` })))).body)).toEqual([]);
  });

  it('member filters other than value eq are tested against each member, at most 100,000 tests a PATCH', async () => {
    await patch([{ op: 'add', path: 'members', value: ids.map((value) => ({ value })) }]);
    const ok = await patch([{ op: 'remove', path: `members[value sw "${ids[0]!.slice(0, 36)}"]` }]);
    expect(members(ok.body)).toHaveLength(999);
    const res = await patch(others.slice(0, 101).map((id) => ({ op: 'remove', path: `members[value sw "${id}"]` })));
    expect(expectScimError(res, 400, 'tooMany').detail).toContain('100000 tests');
    expect(members((await call('GET', `/Groups/${group}`)).body)).toHaveLength(999);
  });
});

describe('lists', () => {
  let call: ReturnType<typeof scim>;

  beforeAll(async () => {
    const org = await t.createOrg('list-bounds-org');
    call = scim(t, await scimToken(t, org));
    await seedUsers(org, 1500, 'l');
  });

  /** The rows the database hands the service while `fn` runs. */
  async function rowsRead<T>(fn: () => Promise<T>): Promise<{ value: T; rows: number }> {
    let rows = 0;
    const count =
      <A extends unknown[]>(f: (...a: A) => Promise<unknown[]>) =>
      async (...a: A) => {
        const result = await f(...a);
        rows += result.length;
        return result;
      };
    const [originalQuery, originalMany] = [t.db.query.bind(t.db), t.db.queryMany.bind(t.db)];
    const query = vi.spyOn(t.db, 'query').mockImplementation(count(originalQuery) as never);
    const many = vi.spyOn(t.db, 'queryMany').mockImplementation(count(originalMany) as never);
    try {
      return { value: await fn(), rows };
    } finally {
      query.mockRestore();
      many.mockRestore();
    }
  }

  it('a page of count=N over 1,501 users answers N, the right totalResults, and reads about N rows', async () => {
    const { value: res, rows } = await rowsRead(() => call<ScimList>('GET', '/Users?startIndex=1001&count=7'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalResults: 1501, startIndex: 1001, itemsPerPage: 7 });
    expect(res.body.Resources).toHaveLength(7);
    // The token, the organization's plan, the count and the page: not every user of the organization.
    expect(rows).toBeLessThan(20);
    // The page is that part of the whole list, in the same order.
    const whole: string[] = [];
    for (let start = 1; start <= 1501; start += 200)
      whole.push(...(await call<ScimList>('GET', `/Users?startIndex=${start}&count=200`)).body.Resources.map((r) => r.id));
    expect(new Set(whole).size).toBe(1501);
    expect(res.body.Resources.map((r) => r.id)).toEqual(whole.slice(1000, 1007));
    const none = await call<ScimList>('GET', '/Users?count=0');
    expect(none.body).toMatchObject({ totalResults: 1501, itemsPerPage: 0, Resources: [] });
  });

  it("a page of Groups reads that page's teams and their members, not every team's", async () => {
    const org = await t.createOrg('group-pages-org');
    const groups = scim(t, await scimToken(t, org));
    const people = await seedUsers(org, 40, 'g');
    for (let i = 0; i < 30; i++) {
      const made = await groups('POST', '/Groups', {
        schemas: [GROUP],
        displayName: `Team ${String(i).padStart(2, '0')}`,
        members: people.map((value) => ({ value })),
      });
      expect(made.status).toBe(201);
    }
    const { value: res, rows } = await rowsRead(() => groups<ScimList>('GET', '/Groups?startIndex=11&count=3'));
    expect(res.body).toMatchObject({ totalResults: 30, startIndex: 11, itemsPerPage: 3 });
    expect(res.body.Resources.map((r) => r.displayName)).toEqual(['Team 10', 'Team 11', 'Team 12']);
    expect(res.body.Resources.every((r) => members(r).length === 40)).toBe(true);
    // The token, the plan, the count, three teams with their 120 members: not 30 teams' 1,200.
    expect(rows).toBeLessThan(200);
    expect((await groups<ScimList>('GET', '/Groups?count=0')).body).toMatchObject({ totalResults: 30, itemsPerPage: 0, Resources: [] });
    // A filter is still answered over every team.
    const named = await groups<ScimList>('GET', `/Groups?filter=${encodeURIComponent('displayName eq "team 29"')}`);
    expect(named.body.Resources.map((r) => r.displayName)).toEqual(['Team 29']);
  });

  it('userName eq and id eq are looked up, not scanned', async () => {
    const { value: res, rows } = await rowsRead(() => call<ScimList>('GET', `/Users?filter=${encodeURIComponent('userName eq "L000042@bounds.test"')}`));
    expect(res.body).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    expect(rows).toBeLessThan(10);
    const id = res.body.Resources[0]!.id;
    const byId = await rowsRead(() => call<ScimList>('GET', `/Users?filter=${encodeURIComponent(`id eq "${id}"`)}`));
    expect(byId.value.body.Resources.map((r) => r.id)).toEqual([id]);
    expect(byId.rows).toBeLessThan(10);
  });

  it('another filter is tested against each user: totalResults counts every match, the page is the asked part', async () => {
    const query = `/Users?filter=${encodeURIComponent('displayName sw "user 1"')}`;
    const res = await call<ScimList>('GET', `${query}&startIndex=3&count=4`);
    // User 1, 10-19, 100-199, 1000-1500.
    expect(res.body).toMatchObject({ totalResults: 1 + 10 + 100 + 501, startIndex: 3, itemsPerPage: 4 });
    const first = await call<ScimList>('GET', `${query}&count=6`);
    expect(first.body.Resources.every((r) => String(r.displayName).startsWith('User 1'))).toBe(true);
    expect(res.body.Resources.map((r) => r.id)).toEqual(first.body.Resources.slice(2, 6).map((r) => r.id));
  });

  it('over 10,000 users such a filter answers 400 tooMany, while lookups and pages still answer', async () => {
    const org = await t.createOrg('many-users-org');
    const big = scim(t, await scimToken(t, org));
    await seedUsers(org, 10_000, 'm');
    const scanned = await big('GET', `/Users?filter=${encodeURIComponent('displayName co "9"')}&count=1`);
    expect(scanned.status).toBe(400);
    expectScimError(scanned, 400, 'tooMany');
    expect((await big<ScimList>('GET', `/Users?filter=${encodeURIComponent('userName eq "m000009@bounds.test"')}`)).body.totalResults).toBe(1);
    expect((await big<ScimList>('GET', '/Users?startIndex=10000&count=5')).body).toMatchObject({ totalResults: 10_001, itemsPerPage: 2 });
  });
});

describe('requests a minute, per SCIM token', () => {
  it("past the plan's writes a minute: 429 in SCIM's error shape with Retry-After; another token has its own budget", async () => {
    const org = await t.createOrg('rate-bounds-org');
    await t.operatorIdentity.setPlan(org.orgId, 'free');
    const call = scim(t, await scimToken(t, org, 'Okta'));
    const other = scim(t, await scimToken(t, org, 'Entra'));
    const missing = '/Users/00000000-0000-4000-8000-000000000000';
    const first = await call('DELETE', missing);
    expectScimError(first, 404);
    expect(first.headers['ratelimit-policy']).toBe(`"write";q=${PER_MINUTE.free.write};w=60`);
    for (let i = 1; i < PER_MINUTE.free.write; i++) expect((await call('DELETE', missing)).status).toBe(404);
    const limited = await call('DELETE', missing);
    expect(expectScimError(limited, 429).detail).toContain(`${PER_MINUTE.free.write} write requests a minute for this SCIM token`);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Reads have their own budget, and so has every other token.
    expect((await call('GET', '/Users?count=1')).status).toBe(200);
    expect((await other('DELETE', missing)).status).toBe(404);
  });
});
