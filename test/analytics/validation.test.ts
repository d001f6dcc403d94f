import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';
import { dayFromToday, query } from './fixture.js';

let t: TestApp;
let org: Org;
const ENDPOINTS = ['tokens', 'tools', 'activity', 'productivity', 'users'] as const;
const ok = { startDate: '2026-09-01', endDate: '2026-09-30' };

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('validation-org');
});
afterAll(() => t?.close());

const errorPaths = (err: { metadata?: Record<string, unknown> }) => (err.metadata?.errors as { path: string }[]).map((i) => i.path);

describe('analytics access', () => {
  it.each(ENDPOINTS)('/%s: 200 for owner and manager, 403 with requestId for member and guest, 401 without a key', async (path) => {
    const manager = await t.addUser(org, 'manager');
    expect((await t.request('GET', query(path, ok), { key: org.ownerKey })).status).toBe(200);
    expect((await t.request('GET', query(path, ok), { key: manager.key })).status).toBe(200);
    for (const role of ['member', 'guest'] as const) {
      const user = await t.addUser(org, role);
      const err = expectErrorObject(await t.request('GET', query(path, ok), { key: user.key }), 403);
      expect(err.requestId).toMatch(/\S/);
    }
    expectErrorObject(await t.request('GET', query(path, ok)), 401);
  });
});

describe('analytics date and parameter validation', () => {
  const today = dayFromToday(0);
  const yesterday = dayFromToday(-1);
  const cases: [string, Record<string, string | number>, string][] = [
    ["today's date as endDate", { startDate: '2026-09-01', endDate: today }, '/endDate'],
    ["today's date as both", { startDate: today, endDate: today }, '/startDate'],
    ['tomorrow', { startDate: '2026-09-01', endDate: dayFromToday(1) }, '/endDate'],
    ['2026-02-30', { startDate: '2026-02-30', endDate: '2026-03-02' }, '/startDate'],
    ['2026-13-01', { startDate: '2026-09-01', endDate: '2026-13-01' }, '/endDate'],
    ['2026-1-5', { startDate: '2026-1-5', endDate: '2026-09-01' }, '/startDate'],
    ['a date with a time', { startDate: '2026-09-01T00:00:00Z', endDate: '2026-09-02' }, '/startDate'],
    ['start after end', { startDate: '2026-09-02', endDate: '2026-09-01' }, '/startDate'],
    ['a span of 367 days', { startDate: '2025-09-01', endDate: '2026-09-02' }, '/endDate'],
    ['a missing startDate', { endDate: '2026-09-01' }, '/startDate'],
    ['a missing endDate', { startDate: '2026-09-01' }, '/endDate'],
  ];
  for (const path of ENDPOINTS) {
    it.each(cases)(`/${path}: 400 for %s`, async (_name, params, errPath) => {
      const err = expectErrorObject(await t.request('GET', query(path, params), { key: org.ownerKey }), 400);
      expect(errorPaths(err)).toContain(errPath);
      expect(err.detail).toContain(errPath.slice(1));
    });
  }

  it('accepts yesterday and a span of exactly 366 days', async () => {
    const res = await t.request<{ data: unknown[] }>('GET', query('activity', { startDate: '2025-09-02', endDate: '2026-09-02' }), { key: org.ownerKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(232); // 2026-01-14 .. 2026-09-02
    expect((await t.request('GET', query('tokens', { startDate: yesterday, endDate: yesterday }), { key: org.ownerKey })).status).toBe(200);
  });

  it.each([
    ['tokens', 'client'],
    ['tools', 'model'],
    ['activity', 'tool_name'],
    ['activity', 'CLIENT'],
  ])('/%s: 400 for group_by=%s', async (path, groupBy) => {
    const err = expectErrorObject(await t.request('GET', query(path, { ...ok, group_by: groupBy }), { key: org.ownerKey }), 400);
    expect(errorPaths(err)).toContain('/group_by');
  });

  it.each([['0'], ['101'], ['abc'], ['1.5'], ['-1']])('/users: 400 for limit=%s', async (limit) => {
    const err = expectErrorObject(await t.request('GET', query('users', { ...ok, limit }), { key: org.ownerKey }), 400);
    expect(errorPaths(err)).toContain('/limit');
  });

  it('/users: 400 for a cursor that is not a user id', async () => {
    const err = expectErrorObject(await t.request('GET', query('users', { ...ok, cursor: 'nope' }), { key: org.ownerKey }), 400);
    expect(errorPaths(err)).toContain('/cursor');
  });

  it('ignores unknown query parameters', async () => {
    expect((await t.request('GET', query('productivity', { ...ok, tz: 'Europe/Paris' }), { key: org.ownerKey })).status).toBe(200);
  });
});

describe('a fixed choice names what it allows', () => {
  it('group_by=user on /tokens says the values it accepts', async () => {
    const err = expectErrorObject(await t.request('GET', query('tokens', { ...ok, group_by: 'user' }), { key: org.ownerKey }), 400);
    expect(err.metadata?.errors).toEqual([{ path: '/group_by', message: 'must be "model", "team" or "repository"' }]);
  });

  it('a wrong client in a telemetry event lists the three clients', async () => {
    const event = { id: 'c1', type: 'git_commit', timestamp: '2026-10-01T10:00:00Z', sessionId: 's', client: 'ide' };
    const err = expectErrorObject(await t.request('POST', '/api/v1/telemetry/events', { key: org.ownerKey, body: { events: [event] } }), 400);
    expect(JSON.stringify(err.metadata?.errors)).toMatch(/terminal-ui.*web.*non-interactive-cli/);
  });
});
