import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/maturity-level-reports';
const ALIAS = '/api/organization/agent-readiness-reports';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('readiness-org');
});
afterAll(() => t?.close());

const valid = () => ({
  repoUrl: 'https://GitHub.com/Acme/API.git',
  apps: { 'services/api': { description: 'The public API' }, 'web/app': { description: 'The web app' } },
  report: {
    lint_config: { numerator: 2, denominator: 2, rationale: 'Both apps lint' },
    unit_tests: { numerator: 0, denominator: 1, rationale: 'No tests' },
  },
  commitHash: '0123456789abcdef0123456789abcdef01234567',
  branch: 'main',
  hasLocalChanges: false,
  hasNonRemoteCommits: true,
  modelUsed: { id: 'claude-sonnet-4', reasoningEffort: 'high' },
  droidVersion: '0.22.1',
});

type Stored = Record<string, unknown> & { reportId: string; createdAt: number; repoId: string };
const list = async (query = '') => (await t.request<{ reports: Stored[] }>('GET', `${PATH}${query}`, { key: org.ownerKey })).body.reports;

describe('uploading a readiness report', () => {
  it('stores every field and answers 201 with a UUID reportId, a millisecond createdAt and the canonical repoId', async () => {
    const before = Date.now();
    const res = await t.request<Stored>('POST', PATH, { key: org.ownerKey, body: valid() });
    expect(res.status).toBe(201);
    expect(res.body.reportId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.isInteger(res.body.createdAt)).toBe(true);
    expect(res.body.createdAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(res.body.createdAt).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(res.body).toEqual({ ...valid(), reportId: res.body.reportId, createdAt: res.body.createdAt, repoId: 'github.com/acme/api' });
    const listed = await list(`?repoId=github.com/acme/api`);
    expect(listed[0]).toEqual(res.body);
  });

  it('keeps optional fields out when they were not sent, and keeps map keys in the order sent', async () => {
    const res = await t.request<Stored>('POST', PATH, {
      key: org.ownerKey,
      body: {
        repoUrl: 'git@github.com:acme/minimal.git',
        apps: {},
        report: { z: { numerator: 1, denominator: 1, rationale: '' }, a: { numerator: 0, denominator: 3, rationale: 'x' } },
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['apps', 'createdAt', 'repoId', 'repoUrl', 'report', 'reportId']);
    expect(Object.keys(res.body.report as object)).toEqual(['z', 'a']);
    expect(res.body.repoId).toBe('github.com/acme/minimal');
  });

  it('accepts the agent-readiness-reports alias for upload and listing', async () => {
    const res = await t.request<Stored>('POST', ALIAS, { key: org.ownerKey, body: { ...valid(), repoUrl: 'https://example.com/alias/repo' } });
    expect(res.status).toBe(201);
    const viaAlias = await t.request<{ reports: Stored[] }>('GET', `${ALIAS}?repoId=example.com/alias/repo`, { key: org.ownerKey });
    expect(viaAlias.body.reports.map((r) => r.reportId)).toEqual([res.body.reportId]);
    expect((await list('?repoId=example.com/alias/repo')).map((r) => r.reportId)).toEqual([res.body.reportId]);
  });

  it('lets owner, manager and member upload; a guest gets 403 and stores nothing; every role may list', async () => {
    const repoUrl = 'https://example.com/roles/repo';
    for (const role of ['manager', 'member'] as const) {
      const u = await t.addUser(org, role);
      expect((await t.request('POST', PATH, { key: u.key, body: { ...valid(), repoUrl } })).status).toBe(201);
    }
    const guest = await t.addUser(org, 'guest');
    expectErrorObject(await t.request('POST', PATH, { key: guest.key, body: { ...valid(), repoUrl } }), 403);
    const seen = await t.request<{ reports: Stored[] }>('GET', `${PATH}?repoId=example.com/roles/repo`, { key: guest.key });
    expect(seen.status).toBe(200);
    expect(seen.body.reports).toHaveLength(2);
  });

  it('401 without a credential or with a wrong one, for listing and upload', async () => {
    for (const key of [undefined, 'ock_not-a-real-key']) {
      expectErrorObject(await t.request('GET', PATH, { key }), 401);
      expectErrorObject(await t.request('POST', PATH, { key, body: valid() }), 401);
    }
  });

  it('never shows reports of another organization', async () => {
    const other = await t.createOrg('other-readiness-org');
    const res = await t.request<Stored>('POST', PATH, { key: other.ownerKey, body: { ...valid(), repoUrl: 'https://example.com/secret/repo' } });
    expect(res.status).toBe(201);
    expect(await list('?repoId=example.com/secret/repo')).toEqual([]);
    expectErrorObject(await t.request('GET', `${PATH}?startAfter=${res.body.reportId}`, { key: org.ownerKey }), 400);
  });
});

type Case = [name: string, mutate: (b: Record<string, unknown>) => unknown, path: string];
const set = (path: string[], value: unknown) => (b: Record<string, unknown>) => {
  let o = b as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  if (value === undefined) delete o[path.at(-1)!];
  else o[path.at(-1)!] = value;
  return b;
};

const invalid: Case[] = [
  ['missing repoUrl', set(['repoUrl'], undefined), '/repoUrl'],
  ['repoUrl not a string', set(['repoUrl'], 42), '/repoUrl'],
  ['empty repoUrl', set(['repoUrl'], ''), '/repoUrl'],
  ['repoUrl that names no repository', set(['repoUrl'], 'not a url'), '/repoUrl'],
  ['repoUrl with a host but no path', set(['repoUrl'], 'https://github.com/'), '/repoUrl'],
  ['repoUrl with an unsupported scheme', set(['repoUrl'], 'ftp://example.com/a/b'), '/repoUrl'],
  ['missing apps', set(['apps'], undefined), '/apps'],
  ['apps as an array', set(['apps'], []), '/apps'],
  ['an app without description', set(['apps', 'services/api'], {}), '/apps/services~1api/description'],
  ['an app description not a string', set(['apps', 'services/api'], { description: 1 }), '/apps/services~1api/description'],
  ['an app with an extra field', set(['apps', 'web/app'], { description: 'x', owner: 'me' }), '/apps/web~1app/owner'],
  ['an empty app path', set(['apps', ''], { description: 'x' }), '/apps'],
  ['missing report', set(['report'], undefined), '/report'],
  ['report as a string', set(['report'], 'good'), '/report'],
  ['a criterion as a number', set(['report', 'lint_config'], 3), '/report/lint_config'],
  ['numerator above denominator', set(['report', 'lint_config', 'numerator'], 3), '/report/lint_config/numerator'],
  ['negative numerator', set(['report', 'lint_config', 'numerator'], -1), '/report/lint_config/numerator'],
  ['fractional numerator', set(['report', 'lint_config', 'numerator'], 0.5), '/report/lint_config/numerator'],
  ['numerator as a string', set(['report', 'lint_config', 'numerator'], '1'), '/report/lint_config/numerator'],
  ['missing numerator', set(['report', 'lint_config', 'numerator'], undefined), '/report/lint_config/numerator'],
  ['denominator 0', set(['report', 'unit_tests', 'denominator'], 0), '/report/unit_tests/denominator'],
  ['negative denominator', set(['report', 'unit_tests', 'denominator'], -2), '/report/unit_tests/denominator'],
  ['denominator as null', set(['report', 'unit_tests', 'denominator'], null), '/report/unit_tests/denominator'],
  ['missing rationale', set(['report', 'unit_tests', 'rationale'], undefined), '/report/unit_tests/rationale'],
  ['rationale not a string', set(['report', 'unit_tests', 'rationale'], ['x']), '/report/unit_tests/rationale'],
  ['a criterion with an extra field', set(['report', 'unit_tests', 'weight'], 2), '/report/unit_tests/weight'],
  ['commitHash empty', set(['commitHash'], ''), '/commitHash'],
  ['commitHash too long', set(['commitHash'], 'a'.repeat(65)), '/commitHash'],
  ['repoUrl over 2048 characters', set(['repoUrl'], `https://github.com/acme/${'a'.repeat(2030)}`), '/repoUrl'],
  ['branch over 255 characters', set(['branch'], 'b'.repeat(256)), '/branch'],
  ['an app path over 512 characters', set(['apps', 'p'.repeat(513)], { description: '' }), '/apps'],
  ['a criterion id over 512 characters', set(['report', 'c'.repeat(513)], { numerator: 0, denominator: 1, rationale: '' }), '/report'],
  ['modelUsed.id over 200 characters', set(['modelUsed', 'id'], 'm'.repeat(201)), '/modelUsed/id'],
  ['droidVersion over 100 characters', set(['droidVersion'], 'v'.repeat(101)), '/droidVersion'],
  ['a rationale over 20000 characters', set(['report', 'unit_tests', 'rationale'], 'r'.repeat(20_001)), '/report/unit_tests/rationale'],
  ['commitHash a number', set(['commitHash'], 1234), '/commitHash'],
  ['empty branch', set(['branch'], ''), '/branch'],
  ['branch a number', set(['branch'], 7), '/branch'],
  ['hasLocalChanges a string', set(['hasLocalChanges'], 'true'), '/hasLocalChanges'],
  ['hasNonRemoteCommits a number', set(['hasNonRemoteCommits'], 1), '/hasNonRemoteCommits'],
  ['modelUsed a string', set(['modelUsed'], 'gpt'), '/modelUsed'],
  ['modelUsed without id', set(['modelUsed', 'id'], undefined), '/modelUsed/id'],
  ['modelUsed with an unknown reasoningEffort', set(['modelUsed', 'reasoningEffort'], 'max'), '/modelUsed/reasoningEffort'],
  ['modelUsed with reasoningEffort in upper case', set(['modelUsed', 'reasoningEffort'], 'HIGH'), '/modelUsed/reasoningEffort'],
  ['modelUsed with an extra field', set(['modelUsed', 'temperature'], 1), '/modelUsed/temperature'],
  ['empty droidVersion', set(['droidVersion'], ''), '/droidVersion'],
  ['a client-chosen reportId', set(['reportId'], '2b1e8f0c-0000-4000-8000-000000000000'), '/reportId'],
  ['a client-chosen createdAt', set(['createdAt'], 1), '/createdAt'],
  ['an unknown field', set(['score'], 5), '/score'],
];

describe('upload validation', () => {
  it.each(invalid)('400 for %s, naming the field, and nothing stored', async (_name, mutate, path) => {
    const before = (await list('?limit=100')).length;
    const res = await t.request('POST', PATH, { key: org.ownerKey, body: mutate(valid()) });
    const err = expectErrorObject(res, 400);
    const items = err.metadata?.errors as { path: string; message: string }[];
    expect(items.map((i) => i.path)).toContain(path);
    expect(err.detail).toContain(path);
    expect((await list('?limit=100')).length).toBe(before);
  });

  it('accepts numerator equal to denominator, numerator 0 and denominator 1', async () => {
    const body = { ...valid(), report: { a: { numerator: 5, denominator: 5, rationale: '' }, b: { numerator: 0, denominator: 1, rationale: '' } } };
    expect((await t.request('POST', PATH, { key: org.ownerKey, body })).status).toBe(201);
  });

  it('accepts every field at its upper and lower bounds', async () => {
    const body = {
      ...valid(),
      repoUrl: `https://github.com/acme/${'a'.repeat(2048 - 'https://github.com/acme/'.length)}`,
      apps: { ['p'.repeat(512)]: { description: 'd'.repeat(20_000) }, x: { description: '' } },
      report: { ['c'.repeat(512)]: { numerator: 0, denominator: 1, rationale: 'r'.repeat(20_000) } },
      commitHash: 'abcd',
      branch: 'b'.repeat(255),
      modelUsed: { id: 'm'.repeat(200), reasoningEffort: 'off' },
      droidVersion: 'v'.repeat(100),
    };
    const res = await t.request<Stored>('POST', PATH, { key: org.ownerKey, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
    expect((await t.request<Stored>('POST', PATH, { key: org.ownerKey, body: { ...body, commitHash: 'F'.repeat(64) } })).status).toBe(201);
  });

  it('accepts any commit id of 1 to 64 characters (abbreviated, or of another version control system)', async () => {
    for (const commitHash of ['a', 'main@{1}', 'r1234', 'x'.repeat(64)]) {
      const res = await t.request<Stored>('POST', PATH, { key: org.ownerKey, body: { ...valid(), commitHash } });
      expect(res.status, commitHash).toBe(201);
      expect(res.body.commitHash).toBe(commitHash);
    }
  });

  it('stores a skipped criterion (numerator null) as null, and lists it so', async () => {
    const body = { ...valid(), report: { ...valid().report, dast_scanning: { numerator: null, denominator: 1, rationale: 'Skipped: not a web service' } } };
    const res = await t.request<Stored & { report: Record<string, { numerator: number | null }> }>('POST', PATH, { key: org.ownerKey, body });
    expect(res.status).toBe(201);
    expect(res.body.report.dast_scanning).toEqual({ numerator: null, denominator: 1, rationale: 'Skipped: not a web service' });
    const listed = (await list()).find((r) => r.reportId === res.body.reportId) as unknown as { report: Record<string, { numerator: number | null }> };
    expect(listed.report.dast_scanning!.numerator).toBeNull();
  });

  it('accepts each reasoningEffort value', async () => {
    for (const reasoningEffort of ['low', 'medium', 'high', 'off']) {
      const res = await t.request<Stored>('POST', PATH, { key: org.ownerKey, body: { ...valid(), modelUsed: { id: 'm', reasoningEffort } } });
      expect(res.status).toBe(201);
      expect(res.body.modelUsed).toEqual({ id: 'm', reasoningEffort });
    }
  });

  it('rejects a body that is not JSON with 400 or 415', async () => {
    expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, rawBody: '{"repoUrl":', headers: { 'content-type': 'application/json' } }), 400);
    expectErrorObject(
      await t.request('POST', PATH, { key: org.ownerKey, rawBody: 'repoUrl=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
    );
  });
});

describe('listing parameters', () => {
  it.each([['0'], ['-1'], ['1.5'], ['abc'], ['']])('400 for limit=%s', async (limit) => {
    const err = expectErrorObject(await t.request('GET', `${PATH}?limit=${limit}`, { key: org.ownerKey }), 400);
    expect((err.metadata?.errors as { path: string }[]).map((e) => e.path)).toContain('/limit');
  });

  it('400 for a startAfter that names no report, also when it is not a UUID', async () => {
    for (const startAfter of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const err = expectErrorObject(await t.request('GET', `${PATH}?startAfter=${startAfter}`, { key: org.ownerKey }), 400);
      expect(err.detail).toContain('startAfter');
    }
  });

  it('filters by repoId given in any URL form of the repository', async () => {
    const ids = (await list('?repoId=github.com/acme/api')).map((r) => r.reportId);
    expect(ids.length).toBeGreaterThan(0);
    expect((await list(`?repoId=${encodeURIComponent('git@github.com:Acme/API.git')}`)).map((r) => r.reportId)).toEqual(ids);
    expect(await list('?repoId=github.com/acme/none')).toEqual([]);
  });
});

describe('one answer lists every problem of a report', () => {
  it('schema faults, a numerator above its denominator and a repository URL that is no remote, all at once; nothing stored', async () => {
    const before = (await list()).length;
    const body = {
      ...valid(),
      repoUrl: 'not a url',
      branch: '',
      modelUsed: { id: 'm', reasoningEffort: 'extreme' },
      report: {
        lint_config: { numerator: 3, denominator: 2, rationale: 'more than there are' },
        unit_tests: { numerator: 0, denominator: 0, rationale: 'none' },
      },
    };
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body }), 400);
    const paths = (err.metadata?.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['/branch', '/modelUsed/reasoningEffort', '/repoUrl', '/report/lint_config/numerator', '/report/unit_tests/denominator']);
    expect((await list()).length).toBe(before);
  });
});
