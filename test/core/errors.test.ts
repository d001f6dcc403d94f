import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('errors-org');
});
afterAll(() => t?.close());

describe('the error object on every failure', () => {
  it('404 for an unknown route, with or without a credential', async () => {
    const err = expectErrorObject(await t.request('GET', '/api/v0/nothing-here', { key: org.ownerKey }), 404);
    expect(err.title).toBe('Not Found');
    expectErrorObject(await t.request('POST', '/nowhere'), 404);
  });

  it("a path id that is not a UUID answers as an unknown one: the resource's 404", async () => {
    const cases = [
      ['DELETE', '/api/v0/api-keys/nope', 'api_key_not_found', 'API key not found.'],
      ['DELETE', '/api/v0/organization/service-accounts/nope', 'service_account_not_found', 'Service account not found.'],
      ['DELETE', '/api/v0/organization/members/nope', 'user_not_found', 'Member not found.'],
      ['DELETE', '/api/v0/sessions/nope', 'session_not_found', 'Session not found.'],
      ['GET', '/api/v0/automations/ci/pull-requests/nope', 'pull_request_not_found', 'Pull request not found.'],
    ] as const;
    for (const [method, path, code, detail] of cases) {
      const err = expectErrorObject(await t.request(method, path, { key: org.ownerKey }), 404);
      expect([err.metadata?.code, err.detail]).toEqual([code, detail]);
    }
  });

  it('405 with an Allow header for a known path and another method', async () => {
    const res = await t.request('DELETE', '/api/v0/organization/usage/limits/global', { key: org.ownerKey });
    const err = expectErrorObject(res, 405);
    expect(err.title).toBe('Method Not Allowed');
    expect(res.headers.allow).toBe('GET, PUT');
  });

  it('415 for a body that is not JSON', async () => {
    const res = await t.request('PUT', '/api/v0/organization/usage/limits/global', {
      key: org.ownerKey,
      rawBody: 'limit=2000000',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const err = expectErrorObject(res, 415);
    expect(err.title).toBe('Unsupported Media Type');
    expect(err.detail).toBe('Content-Type application/x-www-form-urlencoded is not accepted here; send application/json.');
    expect(err.metadata).toMatchObject({ code: 'unsupported_media_type', accepts: ['application/json'] });
  });

  it('400 for malformed JSON', async () => {
    const res = await t.request('PUT', '/api/v0/organization/usage/limits/global', {
      key: org.ownerKey,
      rawBody: '{"limit": ',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorObject(res, 400);
  });

  it('413 for a 2 MiB body', async () => {
    const big = JSON.stringify({ limit: 2_000_000, pad: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.request('PUT', '/api/v0/organization/usage/limits/global', {
      key: org.ownerKey,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(expectErrorObject(res, 413).title).toBe('Payload Too Large');
  });

  it('x-request-id on every response; a caller-supplied id is kept and a malformed one replaced', async () => {
    const ok = await t.request('GET', '/healthz');
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const mine = await t.request('GET', '/api/v0/nope', { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers['x-request-id']).toBe('trace-123');
    expect(expectErrorObject(mine, 404).requestId).toBe('trace-123');
    const bad = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'has spaces and <tags>' } });
    expect(bad.headers['x-request-id']).not.toContain(' ');
  });

  it('500 hides the internal message and stack', async () => {
    const failing = await TestApp.start({}, {}, (app) =>
      app.get('/api/v0/boom', { config: { access: 'public' } }, async () => {
        throw new Error('SELECT secret FROM internals failed at /srv/orgctl/app.ts:42');
      }),
    );
    try {
      const res = await failing.request('GET', '/api/v0/boom');
      expect(expectErrorObject(res, 500).title).toBe('Internal Server Error');
      expect(res.raw).not.toMatch(/secret|internals|app\.ts|at \//);
    } finally {
      await failing.close();
    }
  });
});

describe('organizations are isolated', () => {
  it("another organization's key never sees or changes this organization's limits or keys", async () => {
    const other = await t.createOrg('other-org');
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: org.ownerKey, body: { limit: 4_000_000 } });
    await t.request('PUT', '/api/v0/organization/usage/limits/global', { key: other.ownerKey, body: { limit: 9_000_000 } });
    expect((await t.request('GET', '/api/v0/organization/usage/limits/global', { key: org.ownerKey })).body).toEqual({ limit: 4_000_000 });
    expect((await t.request('GET', '/api/v0/organization/usage/limits/global', { key: other.ownerKey })).body).toEqual({ limit: 9_000_000 });

    const member = await t.addUser(org, 'member', 'shared@example.com');
    const res = await t.request('PUT', '/api/v0/organization/usage/limits/users', {
      key: other.ownerKey,
      body: { users: [{ email: member.email, limit: 1_000_000 }] },
    });
    expect(res.body).toEqual({ updated: [], errors: [{ email: member.email, error: 'No user with this email in the organization.' }] });

    const mine = await t.request<{ apiKeys: { id: string; principalId: string }[] }>('GET', '/api/v0/api-keys', { key: org.ownerKey });
    const theirs = await t.request<{ apiKeys: { id: string }[] }>('GET', '/api/v0/api-keys', { key: other.ownerKey });
    expect(theirs.body.apiKeys.some((k) => mine.body.apiKeys.some((m) => m.id === k.id))).toBe(false);
    expectErrorObject(await t.request('DELETE', `/api/v0/api-keys/${mine.body.apiKeys[0]!.id}`, { key: other.ownerKey }), 404);
    expectErrorObject(await t.request('POST', '/api/v0/api-keys', { key: other.ownerKey, body: { principalId: org.ownerId } }), 404);
    expect((await t.request('GET', '/api/v0/me', { key: org.ownerKey })).status).toBe(200);
  });
});

describe('validation rules hold in every plugin context', () => {
  it('a plugin that adds a shared schema does not loosen validation elsewhere', async () => {
    const { Type } = await import('@sinclair/typebox');
    const extended = await TestApp.start({}, {}, (app) => {
      // A plugin sharing its schema with the whole app (skip-override), as an area might.
      const plugin = async (instance: typeof app) => {
        instance.addSchema(Type.Object({ x: Type.String() }, { $id: 'SharedProbe' }));
      };
      (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
      app.register(plugin);
    });
    try {
      const o = await extended.createOrg('plugin-org');
      const zero = await extended.request('PUT', '/api/v0/organization/usage/limits/global', { key: o.ownerKey, body: { limit: 0 } });
      expectErrorObject(zero, 400);
      const extra = await extended.request('PUT', '/api/v0/organization/usage/limits/global', { key: o.ownerKey, body: { limit: 2_000_000, x: 1 } });
      expectErrorObject(extra, 400);
      const text = await extended.request('PUT', '/api/v0/organization/usage/limits/global', { key: o.ownerKey, body: { limit: '2000000' } });
      expectErrorObject(text, 400);
    } finally {
      await extended.close();
    }
  });
});
