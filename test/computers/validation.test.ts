import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

let t: TestApp;
let org: Org;
const C = '/api/v0/computers';
let n = 0;
const unique = () => `v${++n}`;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('computers-validation');
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) => t.request<{ id: string; name: string }>('POST', C, { key: org.ownerKey, body });
const countComputers = async () => (await t.request<{ computers: unknown[] }>('GET', C, { key: org.ownerKey })).body.computers.length;

/** 400 with the error object, `path` among metadata.errors, and nothing stored. */
async function rejects(body: Record<string, unknown>, path: string) {
  const before = await countComputers();
  const err = expectErrorObject(await create(body), 400);
  expect((err.metadata?.errors as { path: string }[]).map((e) => e.path)).toContain(path);
  expect(await countComputers()).toBe(before);
  return err;
}

const url = (length: number) => {
  const prefix = 'https://git.example.com/';
  return prefix + 'a'.repeat(length - prefix.length);
};

describe('create body limits, each side of each boundary', () => {
  it('name: 1 and 63 characters pass; empty and 64 are 400', async () => {
    expect((await create({ name: 'x' })).status).toBe(201);
    expect((await create({ name: 'n'.repeat(63) })).status).toBe(201);
    await rejects({ name: '' }, '/name');
    const err = await rejects({ name: 'n'.repeat(64) }, '/name');
    expect(err.detail).toContain('/name');
  });

  it('name: 63 characters of a multi-byte script pass (characters, not bytes)', async () => {
    expect((await create({ name: 'é'.repeat(63) })).status).toBe(201);
  });

  it('name: a slash or a control character is 400', async () => {
    for (const name of ['a/b', '/', 'tab\there', 'nl\n', 'nul\u0000', 'del\u007f', 'c1\u0085', '.', '..']) await rejects({ name }, '/name');
  });

  it('name: missing is 400', async () => {
    await rejects({ repos: [] }, '/name');
  });

  it('remoteUser: 1 and 63 pass; empty and 64 are 400', async () => {
    expect((await create({ name: unique(), remoteUser: 'u' })).status).toBe(201);
    expect((await create({ name: unique(), remoteUser: 'u'.repeat(63) })).status).toBe(201);
    await rejects({ name: unique(), remoteUser: '' }, '/remoteUser');
    await rejects({ name: unique(), remoteUser: 'u'.repeat(64) }, '/remoteUser');
  });

  it('hostId: a uuid passes; a bad uuid is 400', async () => {
    expect((await create({ name: unique(), hostId: '3b241101-e2bb-4255-8caf-4136c566a962' })).status).toBe(201);
    for (const hostId of ['3b241101-e2bb-4255-8caf-4136c566a96', 'not-a-uuid', '', '3b241101e2bb42558caf4136c566a962x'])
      await rejects({ name: unique(), hostId }, '/hostId');
  });

  it('repos: 20 pass; 21 are 400', async () => {
    const repos = Array.from({ length: 21 }, (_, i) => `https://github.com/acme/r${i}.git`);
    expect((await create({ name: unique(), repos: repos.slice(0, 20) })).status).toBe(201);
    await rejects({ name: unique(), repos }, '/repos');
  });

  it('repos: a URI of 2048 characters passes; 2049 is 400', async () => {
    expect(url(2048).length).toBe(2048);
    expect((await create({ name: unique(), repos: [url(2048)] })).status).toBe(201);
    await rejects({ name: unique(), repos: [url(2049)] }, '/repos/0');
  });

  it('repos: an item that is not a URI is 400, naming its index', async () => {
    await rejects({ name: unique(), repos: ['https://github.com/a/b.git', 'not a uri'] }, '/repos/1');
    await rejects({ name: unique(), repos: 'https://github.com/a/b.git' }, '/repos');
  });

  it('repos: https, ssh, git and scp-like git@host:owner/repo pass, as readiness and CI accept them', async () => {
    const repos = ['git@github.com:acme/x.git', 'ssh://git@github.com/acme/x', 'https://github.com/acme/x.git', 'git://example.com/acme/x'];
    expect((await create({ name: unique(), repos })).status).toBe(201);
  });

  it.each([
    ['javascript:alert(1)'],
    [' JavaScript:alert(document.cookie)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['mailto:a@example.com'],
    ['ftp://example.com/acme/x'],
  ])('repos: %j, of a scheme that is no git transport, is 400 saying so', async (repo) => {
    const err = await rejects({ name: unique(), repos: ['https://github.com/a/b.git', repo] }, '/repos/1');
    expect(err.detail).toMatch(/\/repos\/1 must be a remote repository URL .*; [a-z]+: is not a scheme of a repository/);
  });

  it('repos: the computer keeps (and its agent clones) a URL without its credentials; the token shows nowhere', async () => {
    const repos = [
      'https://user:TOKEN-c1@github.com/acme/x.git',
      'https://TOKEN-c2@github.com/acme/y',
      'ssh://git:TOKEN-c3@github.com/acme/z',
      'git@github.com:acme/w.git',
    ];
    const res = await t.app.inject({ method: 'POST', url: C, headers: { authorization: `Bearer ${org.ownerKey}` }, payload: { name: unique(), repos } });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('TOKEN');
    const listed = await t.app.inject({ method: 'GET', url: C, headers: { authorization: `Bearer ${org.ownerKey}` } });
    expect(listed.body).toContain(res.json<{ id: string }>().id);
    expect(listed.body).not.toContain('TOKEN');
    // What the host agent is handed to clone, and writes into the step's log.
    const [stored] = await t.db.query<{ repos: string[] }>(`SELECT repos FROM computers WHERE id = $1`, [res.json<{ id: string }>().id]);
    expect(stored!.repos).toEqual(['https://github.com/acme/x.git', 'https://github.com/acme/y', 'ssh://git@github.com/acme/z', 'git@github.com:acme/w.git']);
  });

  it.each([
    ['a transport helper that runs a command', 'ext::sh -c touch% /tmp/pwned'],
    ['a file-descriptor transport', 'fd::17'],
    ['a local path', 'file:///etc'],
    ['a loopback address', 'http://127.0.0.1/acme/x.git'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['a name that resolves to loopback', 'https://localhost/acme/x.git'],
    ['a private address, scp-like', 'git@10.0.0.1:acme/x.git'],
    ['a private IPv6 address', 'ssh://git@[fd00::1]/acme/x'],
  ])('repos: %s is 400 unless the server allows private networks', async (_what, repo) => {
    await rejects({ name: unique(), repos: ['https://github.com/a/b.git', repo] }, '/repos/1');
  });

  it('serviceAccountId: an empty string is 400; one naming no service account of the organization is 400', async () => {
    await rejects({ name: unique(), serviceAccountId: '' }, '/serviceAccountId');
    await rejects({ name: unique(), serviceAccountId: 'x' }, '/serviceAccountId');
    await rejects({ name: unique(), serviceAccountId: org.ownerId }, '/serviceAccountId');
    const foreign = await t.operatorIdentity.addServiceAccount({ orgId: (await t.createOrg('sa-elsewhere')).orgId, name: 'bot', role: 'member' });
    await rejects({ name: unique(), serviceAccountId: foreign.id }, '/serviceAccountId');
  });

  it('serviceAccountId: a service account of the organization becomes the owner', async () => {
    const sa = await t.operatorIdentity.addServiceAccount({ orgId: org.orgId, name: 'ci-bot', role: 'member' });
    const res = await create({ name: unique(), serviceAccountId: sa.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ownerPrincipalKind: 'service_account', ownerId: sa.id });
  });

  it('provider, autoInstallDeps and source are checked', async () => {
    await rejects({ name: unique(), provider: 'aws' }, '/provider');
    await rejects({ name: unique(), autoInstallDeps: 'yes' }, '/autoInstallDeps');
    await rejects({ name: unique(), source: { kind: 'image', templateId: 't' } }, '/source/kind');
    await rejects({ name: unique(), source: { kind: 'template' } }, '/source/templateId');
    await rejects({ name: unique(), source: { kind: 'template', templateId: 't', extra: 1 } }, '/source/extra');
    await rejects({ name: unique(), provider: 'e2b', hostId: '3b241101-e2bb-4255-8caf-4136c566a962' }, '/hostId');
  });

  it('unknown properties are 400, including the response name computerSource', async () => {
    await rejects({ name: unique(), color: 'red' }, '/color');
    await rejects({ name: unique(), computerSource: { kind: 'template', templateId: 't' } }, '/computerSource');
  });

  it('any valid name round-trips (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 63, unit: 'grapheme-ascii' })
          .filter((s) => ![...s].some((ch) => ch === '/' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)),
        async (raw) => {
          const name = `${raw.slice(0, 55)}-${++n}`;
          const res = await create({ name });
          expect(res.status).toBe(201);
          expect(res.body.name).toBe(name);
          const back = await t.request<{ id: string }>('GET', `${C}/name/${encodeURIComponent(name)}`, { key: org.ownerKey });
          expect(back.body.id).toBe(res.body.id);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('update body and path limits', () => {
  it('PATCH: name 63 passes, 64 is 400; bad hostId, long remoteUser and extra properties are 400 and change nothing', async () => {
    const c = (await create({ name: unique() })).body;
    const patch = (body: unknown) => t.request('PATCH', `${C}/${c.id}`, { key: org.ownerKey, body });
    expect((await patch({ name: 'p'.repeat(63) })).status).toBe(200);
    for (const [body, path] of [
      [{ name: 'p'.repeat(64) }, '/name'],
      [{ name: '' }, '/name'],
      [{ name: 'a/b' }, '/name'],
      [{ hostId: 'nope' }, '/hostId'],
      [{ remoteUser: 'u'.repeat(64) }, '/remoteUser'],
      [{ remoteUser: '' }, '/remoteUser'],
      [{ repos: [] }, '/repos'],
      [{ provider: 'e2b' }, '/provider'],
    ] as const) {
      const err = expectErrorObject(await patch(body), 400);
      expect((err.metadata?.errors as { path: string }[]).map((e) => e.path)).toContain(path);
    }
    expect((await t.request<{ name: string }>('GET', `${C}/${c.id}`, { key: org.ownerKey })).body.name).toBe('p'.repeat(63));
  });

  it('GET by name: 63 characters is a lookup (404 when absent); 64 is 400', async () => {
    expectErrorObject(await t.request('GET', `${C}/name/${'q'.repeat(63)}`, { key: org.ownerKey }), 404);
    expectErrorObject(await t.request('GET', `${C}/name/${'q'.repeat(64)}`, { key: org.ownerKey }), 400);
  });
});
