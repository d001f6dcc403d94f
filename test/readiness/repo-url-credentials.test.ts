import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/organization/maturity-level-reports';
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('readiness-credentials');
});
afterAll(() => t?.close());

const report = (repoUrl: string) => ({ repoUrl, apps: {}, report: { lint_config: { numerator: 1, denominator: 1, rationale: 'lints' } } });
const raw = async (key: string, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('readiness reports never keep the credentials of a repository URL', () => {
  it.each([
    ['a user and a token', 'https://user:TOKEN-a1@github.com/acme/repo', 'https://github.com/acme/repo'],
    ['a token as the user', 'https://TOKEN-a2@github.com/acme/repo.git', 'https://github.com/acme/repo.git'],
    ['a token in the query', ' https://github.com/acme/repo?private_token=TOKEN-a3 ', 'https://github.com/acme/repo'],
    ['an ssh password (the user name stays: a clone needs it)', 'ssh://git:TOKEN-a4@github.com/acme/repo', 'ssh://git@github.com/acme/repo'],
  ])('%s: the upload answers, and a guest lists, the URL without it', async (_what, repoUrl, stored) => {
    const secret = /TOKEN-a\d/.exec(repoUrl)![0];
    const res = await t.app.inject({ method: 'POST', url: PATH, headers: { authorization: `Bearer ${org.ownerKey}` }, payload: report(repoUrl) });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain(secret);
    expect(res.json()).toMatchObject({ repoUrl: stored, repoId: 'github.com/acme/repo' });
    const guest = await t.addUser(org, 'guest');
    const listed = await raw(guest.key, `${PATH}?repoId=github.com/acme/repo`);
    expect(listed).toContain(res.json<{ reportId: string }>().reportId);
    expect(listed).not.toContain(secret);
    expect(await raw(guest.key, '/api/organization/agent-readiness-summary')).not.toContain(secret);
    const rows = await t.db.query<{ repo_url: string }>(`SELECT repo_url FROM readiness_reports WHERE org_id = $1`, [org.orgId]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it.each([
    ['javascript:alert(1)'],
    [' JavaScript:alert(document.cookie)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['mailto:a@example.com'],
    ['ftp://example.com/acme/repo'],
    ['https://user:pa/ss@example.com/acme/repo'],
  ])('refuses %j with 400 naming /repoUrl', async (repoUrl) => {
    const err = expectErrorObject(await t.request('POST', PATH, { key: org.ownerKey, body: report(repoUrl) }), 400);
    expect(err.detail).toContain('/repoUrl must be a remote repository URL');
  });
});
