import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/core/clock.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;
// A computer is dated by the service's clock, to the millisecond.
const clock = new TestClock(Date.parse('2026-03-02T10:00:00.123Z'));
const C = '/api/v0/computers';
type Computer = Record<string, unknown> & {
  id: string;
  name: string;
  status: string;
  provisioningSteps: { id: string; status: string; error?: string; installSessionId?: string }[];
};

beforeAll(async () => {
  t = await TestApp.start({}, { clock });
  org = await t.createOrg('computers-api');
});
afterAll(() => t?.close());

const create = (body: unknown, key = org.ownerKey) => t.request<Computer>('POST', C, { key, body });

describe('create and read', () => {
  it('creates a byom computer (201) and reads it back by id and by name', async () => {
    const res = await create({
      name: 'dev-box',
      repos: ['https://github.com/acme/api.git'],
      remoteUser: 'dev',
      source: { kind: 'template', templateId: 'tpl-1' },
    });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      name: 'dev-box',
      providerType: 'byom',
      status: 'provisioning',
      remoteUser: 'dev',
      ownerPrincipalKind: 'user',
      ownerId: org.ownerId,
      computerSource: { kind: 'template', templateId: 'tpl-1' },
    });
    expect(c.createdAt).toBe(clock.now().getTime());
    expect(c.provisioningSteps.map((s) => [s.id, s.status])).toEqual([
      ['connect-host', 'pending'],
      ['clone-repos', 'pending'],
      ['install-dependencies', 'pending'],
    ]);
    expect(c.relayClientUrl).toBe(`http://localhost:80/api/v0/computers/${c.id}`);
    expect(c.relayAgentUrl).toBe(`http://localhost:80/api/v0/computers/${c.id}/agent`);
    expect(c).not.toHaveProperty('source');
    const byId = await t.request<Computer>('GET', `${C}/${c.id}`, { key: org.ownerKey });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(c);
    const byName = await t.request<Computer>('GET', `${C}/name/dev-box`, { key: org.ownerKey });
    expect(byName.body).toEqual(c);
  });

  it('skips clone-repos without repos and install-dependencies with autoInstallDeps false', async () => {
    const res = await create({ name: 'bare', autoInstallDeps: false });
    expect(res.body.provisioningSteps.map((s) => s.status)).toEqual(['pending', 'skipped', 'skipped']);
    expect(res.body.provisioningSteps[1]).toHaveProperty('completedAt');
  });

  it('an e2b computer on a service without E2B_API_KEY fails create-sandbox at once, naming the variable', async () => {
    const res = await create({ name: 'cloud', provider: 'e2b' });
    expect(res.status).toBe(201);
    expect(res.body.providerType).toBe('e2b');
    expect(res.body.status).toBe('error');
    const [first, ...rest] = res.body.provisioningSteps;
    expect(first).toMatchObject({ id: 'create-sandbox', status: 'failed' });
    expect(first!.error).toContain('E2B_API_KEY');
    expect(rest.map((s) => s.id)).toEqual(['configure-user', 'clone-repos', 'install-dependencies']);
    // Nothing waits behind the failure: the steps after it are settled, skipped with the reason.
    // (clone-repos has no repository to clone: skipped at planning, without a reason).
    expect(rest.map((s) => [s.status, s.error ?? null])).toEqual([
      ['skipped', 'Not run: the step Create the E2B sandbox (create-sandbox) failed.'],
      ['skipped', null],
      ['skipped', 'Not run: the step Create the E2B sandbox (create-sandbox) failed.'],
    ]);
    expect(res.body).not.toHaveProperty('relayAgentUrl');
  });

  it('chooses byom when no provider is given and E2B is not configured', async () => {
    expect((await create({ name: 'default-provider' })).body.providerType).toBe('byom');
  });

  it('409 on a name clash, on create and on rename; the clash stores nothing', async () => {
    const first = await create({ name: 'taken' });
    const clash = expectErrorObject(await create({ name: 'taken' }), 409);
    expect(clash.detail).toContain('taken');
    const other = await create({ name: 'other' });
    expectErrorObject(await t.request('PATCH', `${C}/${other.body.id}`, { key: org.ownerKey, body: { name: 'taken' } }), 409);
    expect((await t.request<Computer>('GET', `${C}/${other.body.id}`, { key: org.ownerKey })).body.name).toBe('other');
    const list = await t.request<{ computers: Computer[] }>('GET', C, { key: org.ownerKey });
    expect(list.body.computers.filter((c) => c.name === 'taken').map((c) => c.id)).toEqual([first.body.id]);
  });

  it('the same name is free in another organization', async () => {
    const other = await t.createOrg('computers-api-2');
    expect((await create({ name: 'dev-box' }, other.ownerKey)).status).toBe(201);
  });
});

describe('update, list, delete', () => {
  it('PATCH renames and sets hostId and remoteUser', async () => {
    const c = (await create({ name: 'to-patch' })).body;
    const hostId = '0b9e3c1e-58a4-4b7e-9d59-3f2f1b7a9c11';
    const res = await t.request<Computer>('PATCH', `${C}/${c.id}`, { key: org.ownerKey, body: { name: 'patched', hostId, remoteUser: 'ops' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: 'patched', hostId, remoteUser: 'ops' });
    expectErrorObject(await t.request('GET', `${C}/name/to-patch`, { key: org.ownerKey }), 404);
  });

  it('lists the computers, filtered by hostId', async () => {
    const hostId = '7d3f0a4e-2c1b-4e8f-a6d5-9b8c7e6f5a41';
    const on = (await create({ name: 'on-host', hostId })).body;
    const list = await t.request<{ computers: Computer[] }>('GET', `${C}?hostId=${hostId}`, { key: org.ownerKey });
    expect(list.status).toBe(200);
    expect(list.body.computers.map((c) => c.id)).toEqual([on.id]);
    const all = await t.request<{ computers: Computer[] }>('GET', C, { key: org.ownerKey });
    expect(all.body.computers.length).toBeGreaterThan(1);
    expectErrorObject(await t.request('GET', `${C}?hostId=not-a-uuid`, { key: org.ownerKey }), 400);
  });

  it('DELETE answers 204, then the computer is gone (404)', async () => {
    const c = (await create({ name: 'doomed' })).body;
    const res = await t.request('DELETE', `${C}/${c.id}`, { key: org.ownerKey });
    expect(res.status).toBe(204);
    expect(res.raw).toBe('');
    expectErrorObject(await t.request('GET', `${C}/${c.id}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('DELETE', `${C}/${c.id}`, { key: org.ownerKey }), 404);
    expect((await create({ name: 'doomed' })).status).toBe(201);
  });

  it('404 for an unknown id, a malformed id and an unknown name', async () => {
    expectErrorObject(await t.request('GET', `${C}/5f1d7c1a-7a43-4c1e-9d3e-2b9f0d8e7c6b`, { key: org.ownerKey }), 404);
    // A malformed id answers as an unknown one: the same code and detail.
    for (const [method, path] of [
      ['GET', `${C}/nope`],
      ['POST', `${C}/nope/install-deps`],
      ['GET', `${C}/nope/provisioning-steps/create-sandbox`],
    ] as const) {
      const err = expectErrorObject(await t.request(method, path, { key: org.ownerKey }), 404);
      expect([err.metadata?.code, err.detail]).toEqual(['computer_not_found', 'Computer not found.']);
    }
    expectErrorObject(await t.request('GET', `${C}/name/nope`, { key: org.ownerKey }), 404);
  });

  it('an install session of another computer, or an unknown one, is 404', async () => {
    const a = (await create({ name: 'sess-a' })).body;
    const started = await t.request<Computer>('POST', `${C}/${a.id}/install-deps`, { key: org.ownerKey });
    expect(started.status).toBe(202);
    const sessionId = started.body.provisioningSteps.find((s) => s.id === 'install-dependencies')!.installSessionId!;
    const b = (await create({ name: 'sess-b' })).body;
    expect((await t.request('GET', `${C}/${a.id}/install-sessions/${sessionId}`, { key: org.ownerKey })).status).toBe(200);
    expectErrorObject(await t.request('GET', `${C}/${b.id}/install-sessions/${sessionId}`, { key: org.ownerKey }), 404);
    expect(expectErrorObject(await t.request('GET', `${C}/${a.id}/install-sessions/garbage`, { key: org.ownerKey }), 404).metadata?.code).toBe(
      'install_session_not_found',
    );
  });
});
