import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/v0/organization/usage/enforcement';
const AUDIT = '/api/v0/organization/usage/limits/audit';
const ALLOWANCE = '/api/v0/usage/allowance';
const DEFAULTS = { mode: 'block', thresholds: [80, 95], unreachable: 'open' };

type Policy = { mode: string; thresholds: number[]; unreachable: string };
type AuditEntry = {
  scope: string;
  actorEmail: string | null;
  oldLimit: number | null;
  newLimit: number | null;
  oldPolicy: Policy | null;
  newPolicy: Policy | null;
};

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('enforcement-org');
});
afterAll(() => t?.close());

const policyOf = async (o: Org) => (await t.request<Policy>('GET', PATH, { key: o.ownerKey })).body;
const audit = async (o: Org) => (await t.request<{ entries: AuditEntry[] }>('GET', AUDIT, { key: o.ownerKey })).body.entries;

describe('the enforcement policy', () => {
  it('an organization that never set one reads the defaults, and the allowance carries them', async () => {
    const fresh = await t.createOrg('fresh-policy-org');
    expect(await policyOf(fresh)).toEqual(DEFAULTS);
    expect((await t.request('GET', ALLOWANCE, { key: fresh.ownerKey })).body).toMatchObject({ source: 'none', enforcement: DEFAULTS });
  });

  it('owners and managers replace it; every role reads it; members and guests get 403 and change nothing', async () => {
    const manager = await t.addUser(org, 'manager');
    const set = await t.request('PUT', PATH, { key: org.ownerKey, body: { mode: 'warn', thresholds: [50, 75, 90], unreachable: 'closed' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ mode: 'warn', thresholds: [50, 75, 90], unreachable: 'closed' });
    const byManager = await t.request('PUT', PATH, { key: manager.key, body: { mode: 'off', thresholds: [], unreachable: 'open' } });
    expect(byManager.status).toBe(200);
    for (const role of ['member', 'guest'] as const) {
      const u = await t.addUser(org, role);
      const err = expectErrorObject(await t.request('PUT', PATH, { key: u.key, body: DEFAULTS }), 403);
      expect(err.metadata?.code).toBe('forbidden');
      expect((await t.request('GET', PATH, { key: u.key })).body).toEqual({ mode: 'off', thresholds: [], unreachable: 'open' });
      expect((await t.request('GET', ALLOWANCE, { key: u.key })).body).toMatchObject({ enforcement: { mode: 'off', thresholds: [] } });
    }
    expectErrorObject(await t.request('GET', PATH), 401);
  });

  const invalid: [string, unknown, string][] = [
    ['descending thresholds', { ...DEFAULTS, thresholds: [95, 80] }, '/thresholds/1'],
    ['a repeated threshold', { ...DEFAULTS, thresholds: [80, 80] }, '/thresholds'],
    ['a threshold of 0', { ...DEFAULTS, thresholds: [0, 50] }, '/thresholds/0'],
    ['a threshold above 100', { ...DEFAULTS, thresholds: [80, 101] }, '/thresholds/1'],
    ['a fractional threshold', { ...DEFAULTS, thresholds: [80.5] }, '/thresholds/0'],
    ['six thresholds', { ...DEFAULTS, thresholds: [10, 20, 30, 40, 50, 60] }, '/thresholds'],
    ['an unknown mode', { ...DEFAULTS, mode: 'deny' }, '/mode'],
    ['an unknown unreachable', { ...DEFAULTS, unreachable: 'maybe' }, '/unreachable'],
    ['a missing mode', { thresholds: [80], unreachable: 'open' }, '/mode'],
    ['a missing thresholds', { mode: 'warn', unreachable: 'open' }, '/thresholds'],
    ['an extra property', { ...DEFAULTS, scope: 'all' }, '/scope'],
  ];

  it.each(invalid)('400 for %s, naming the field, and the stored policy unchanged', async (_name, body, path) => {
    const before = await policyOf(org);
    const err = expectErrorObject(await t.request('PUT', PATH, { key: org.ownerKey, body }), 400);
    expect(err.metadata?.code).toBe('validation_failed');
    expect((err.metadata?.errors as { path: string }[]).map((e) => e.path)).toContain(path);
    expect(await policyOf(org)).toEqual(before);
  });

  it('says why descending thresholds are refused', async () => {
    const err = expectErrorObject(await t.request('PUT', PATH, { key: org.ownerKey, body: { ...DEFAULTS, thresholds: [50, 90, 70] } }), 400);
    expect(err.detail).toBe('body/thresholds/2 must be greater than the threshold before it (90): thresholds ascend');
  });

  it('each change is one audit entry with the policy before and after; a PUT that changes nothing writes none; limit entries keep their fields', async () => {
    const o = await t.createOrg('audit-policy-org');
    const manager = await t.addUser(o, 'manager');
    await t.request('PUT', PATH, { key: manager.key, body: { mode: 'warn', thresholds: [90], unreachable: 'open' } });
    await t.request('PUT', PATH, { key: o.ownerKey, body: { mode: 'warn', thresholds: [90], unreachable: 'open' } });
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: o.ownerKey, body: { limit: 2_000_000 } });
    await t.request('PUT', PATH, { key: o.ownerKey, body: { mode: 'block', thresholds: [90], unreachable: 'closed' } });
    const entries = await audit(o);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      scope: 'policy',
      oldLimit: null,
      newLimit: null,
      oldPolicy: { mode: 'warn', thresholds: [90], unreachable: 'open' },
      newPolicy: { mode: 'block', thresholds: [90], unreachable: 'closed' },
    });
    expect(entries[1]).toMatchObject({ scope: 'global', oldLimit: null, newLimit: 2_000_000, oldPolicy: null, newPolicy: null });
    expect(entries[2]).toMatchObject({ scope: 'policy', actorEmail: manager.email, oldPolicy: DEFAULTS, newPolicy: { mode: 'warn', thresholds: [90] } });
  });

  it('a PUT of the defaults to an organization that never set any writes no entry', async () => {
    const o = await t.createOrg('defaults-policy-org');
    expect((await t.request('PUT', PATH, { key: o.ownerKey, body: DEFAULTS })).status).toBe(200);
    expect(await audit(o)).toEqual([]);
  });

  it("is the organization's own: another organization keeps its defaults", async () => {
    const other = await t.createOrg('other-policy-org');
    await t.request('PUT', PATH, { key: org.ownerKey, body: { mode: 'warn', thresholds: [60], unreachable: 'open' } });
    expect(await policyOf(other)).toEqual(DEFAULTS);
  });
});

describe('the allowance of a person named by email', () => {
  it('owners, managers and a manager service account read it; the same limit as by user_id', async () => {
    const person = await t.addUser(org, 'member');
    await t.request('PUT', '/api/v0/organization/usage/limits/users', { key: org.ownerKey, body: { users: [{ email: person.email, limit: 4_000_000 }] } });
    const byId = await t.request('GET', `${ALLOWANCE}?user_id=${person.id}`, { key: org.ownerKey });
    const byEmail = await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(person.email.toUpperCase())}`, { key: org.ownerKey });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual(byId.body);
    expect(byEmail.body).toMatchObject({ limit: 4_000_000, source: 'individual' });
    const manager = await t.addUser(org, 'manager');
    expect((await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(person.email)}`, { key: manager.key })).body).toMatchObject({ limit: 4_000_000 });

    const sa = await t.request<{ id: string }>('POST', '/api/v0/organization/service-accounts', {
      key: org.ownerKey,
      body: { name: 'hook-bot', role: 'manager' },
    });
    const saKey = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: sa.body.id } });
    const bySa = await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(person.email)}`, { key: saKey.body.key });
    expect(bySa.status).toBe(200);
    expect(bySa.body).toMatchObject({ limit: 4_000_000, source: 'individual', enforcement: { mode: expect.any(String) } });
  });

  it('403 for a member or a member service account naming someone else; a member may name their own email', async () => {
    const member = await t.addUser(org, 'member');
    const other = await t.addUser(org, 'member');
    const err = expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(other.email)}`, { key: member.key }), 403);
    expect(err.metadata?.code).toBe('forbidden');
    // Refused before the lookup: a member learns nothing about who is in the organization.
    expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=nobody%40example.com`, { key: member.key }), 403);
    expect((await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(member.email)}`, { key: member.key })).status).toBe(200);
    const sa = await t.request<{ id: string }>('POST', '/api/v0/organization/service-accounts', {
      key: org.ownerKey,
      body: { name: 'member-bot', role: 'member' },
    });
    const saKey = await t.request<{ key: string }>('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { principalId: sa.body.id } });
    expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(other.email)}`, { key: saKey.body.key }), 403);
  });

  it('404 user_not_found for an email of no one in the organization, or of someone in another; 400 for a malformed email or both user_id and email', async () => {
    const elsewhere = await t.createOrg('elsewhere-org', 'someone@elsewhere.test');
    expect(elsewhere.ownerId).toBeTruthy();
    for (const email of ['nobody@example.com', 'someone@elsewhere.test']) {
      const err = expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=${encodeURIComponent(email)}`, { key: org.ownerKey }), 404);
      expect(err.metadata?.code).toBe('user_not_found');
    }
    expect(expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=not-an-email`, { key: org.ownerKey }), 400).metadata?.code).toBe('validation_failed');
    const both = expectErrorObject(await t.request('GET', `${ALLOWANCE}?email=a%40b.test&user_id=${org.ownerId}`, { key: org.ownerKey }), 400);
    expect(both.detail).toBe('Name the user by user_id or by email, not both.');
  });
});
