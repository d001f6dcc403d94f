import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('nul-org');
});
afterAll(() => t?.close());

const paths = (err: { metadata?: Record<string, unknown> }) => (err.metadata?.errors as { path: string }[]).map((e) => e.path);

describe('a NUL character anywhere it could reach the database is 400 naming the field', () => {
  it.each([
    ['an API key name', 'POST', '/api/v0/api-keys', { name: 'k\u0000ey' }, '/name'],
    ['a computer name', 'POST', '/api/v0/computers', { name: 'a\u0000b' }, '/name'],
    ['a computer remoteUser', 'POST', '/api/v0/computers', { name: 'ok', remoteUser: 'u\u0000' }, '/remoteUser'],
    ['a readiness repoUrl', 'POST', '/api/organization/maturity-level-reports', { repoUrl: 'https://github.com/a/b\u0000' }, '/repoUrl'],
    [
      'a nested string',
      'POST',
      '/api/v1/telemetry/events',
      {
        events: [
          { id: 'x', type: 'hook', timestamp: '2026-10-01T10:00:00Z', sessionId: 's', client: 'web', event: 'Stop', matcher: '', command: 'echo \u0000' },
        ],
      },
      '/events/0/command',
    ],
  ])('%s', async (_what, method, url, body, path) => {
    const err = expectErrorObject(await t.request(method as 'POST', url, { key: org.ownerKey, body }), 400);
    expect(paths(err)).toContain(path);
    expect(err.detail).toContain('NUL');
  });

  it.each([
    ['a computer name in the path', '/api/v0/computers/name/a%00b', '/name'],
    ['the readiness repoId filter', '/api/organization/maturity-level-reports?repoId=a%00b', '/repoId'],
    ['the pull-request repoUrl filter', '/api/v0/automations/ci/pull-requests?repoUrl=a%00b', '/repoUrl'],
  ])('%s', async (_what, url, path) => {
    const err = expectErrorObject(await t.request('GET', url, { key: org.ownerKey }), 400);
    expect(paths(err)).toEqual([path]);
  });
});

describe('numbers past what the database keeps are 400 naming the field', () => {
  it('limits/audit?before=1e+308', async () => {
    const err = expectErrorObject(await t.request('GET', '/api/v0/organization/usage/limits/audit?before=1e%2B308', { key: org.ownerKey }), 400);
    expect(paths(err)).toEqual(['/before']);
  });

  it('an API key expiring at the last millisecond JavaScript dates know', async () => {
    const err = expectErrorObject(await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { expiresAt: 8640000000000000 } }), 400);
    expect(paths(err)).toEqual(['/expiresAt']);
  });

  it('an API key expiring in the year 9999 is accepted', async () => {
    const res = await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { expiresAt: Date.UTC(9999, 11, 31) } });
    expect(res.status).toBe(201);
  });
});

describe('response headers', () => {
  it('every response says nosniff; one that needed a credential, such as a new key with its secret, is not to be stored', async () => {
    const created = await t.request('POST', '/api/v0/api-keys', { key: org.ownerKey, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.headers['x-content-type-options']).toBe('nosniff');
    expect(created.headers['cache-control']).toBe('no-store');
    const health = await t.request('GET', '/healthz');
    expect(health.headers['x-content-type-options']).toBe('nosniff');
    const missing = await t.request('GET', '/nowhere');
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });

  it('openapi.json marks paging limits optional (they have defaults)', async () => {
    const doc = (await t.request<{ paths: Record<string, { get: { parameters: { name: string; required?: boolean }[] } }> }>('GET', '/openapi.json')).body;
    for (const path of ['/api/v1/analytics/users', '/api/organization/maturity-level-reports', '/api/v0/automations/ci/pull-requests']) {
      const limit = doc.paths[path]!.get.parameters.find((p) => p.name === 'limit');
      expect(limit?.required ?? false, path).toBe(false);
    }
  });
});
