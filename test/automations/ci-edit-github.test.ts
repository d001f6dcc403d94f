import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitHubApiTestDouble } from '../helpers/github-api-test-double.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const EDIT = '/api/v0/automations/ci/edit';
const TOKEN = 'ghs_test-token-0123456789';
const EXISTING = '.github/workflows/ci.yml';
const OLD = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
const NEW = 'on: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci && npm test\n';
const REPO = 'https://ghe.acme.test/acme/api.git';

interface Result {
  pullRequest: { url: string; number: number; branch: string; baseBranch: string; title: string };
  commitSha: string;
}

let github: GitHubApiTestDouble;
let t: TestApp;
let org: Org;

beforeAll(async () => {
  github = await GitHubApiTestDouble.start('/api/v3');
  // A GitHub Enterprise Server: the host is served by the REST API at https://HOST/api/v3 (here, the double).
  t = await TestApp.start({ ciGitHosts: 'ghe.acme.test=github', githubApiUrl: github.url, githubToken: TOKEN });
  org = await t.createOrg('github-org');
});
afterAll(async () => {
  await t?.close();
  await github?.close();
});
beforeEach(() => {
  github.requests.length = 0;
  github.addRepo('acme/api', { [EXISTING]: OLD, 'README.md': '# api\n' });
});

const edit = (body: Record<string, unknown>) => t.request<Result>('POST', EDIT, { key: org.ownerKey, body: { repoUrl: REPO, ...body } });
const base = GitHubApiTestDouble.BASE_COMMIT;

describe('CI edit on GitHub (against the GitHub API test double)', () => {
  it('create: the Git Data API sequence under the Enterprise base URL, with the token on every request', async () => {
    const res = await edit({ action: 'create', workflowPath: '.github/workflows/lint.yml', content: NEW, title: 'Add lint', description: 'Lints every push.' });
    expect(res.status).toBe(200);
    const branch = res.body.pullRequest.branch;
    expect(branch).toMatch(/^ci\/create-lint-[0-9a-f]{8}$/);
    expect(github.sequence()).toEqual([
      'GET /repos/acme/api',
      'GET /repos/acme/api/git/ref/heads/main',
      'GET /repos/acme/api/contents/.github/workflows/lint.yml',
      `GET /repos/acme/api/git/commits/${base}`,
      'POST /repos/acme/api/git/trees',
      'POST /repos/acme/api/git/commits',
      'POST /repos/acme/api/git/refs',
      'POST /repos/acme/api/pulls',
    ]);
    expect(github.requests.every((r) => r.path.startsWith('/api/v3/'))).toBe(true);
    expect(github.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    const [, , , , tree, commit, ref, pull] = github.requests;
    expect(tree!.body).toEqual({
      base_tree: GitHubApiTestDouble.BASE_TREE,
      tree: [{ path: '.github/workflows/lint.yml', mode: '100644', type: 'blob', content: NEW }],
    });
    expect(commit!.body).toMatchObject({ message: 'Add lint\n\nLints every push.\n', parents: [base] });
    expect(ref!.body).toEqual({ ref: `refs/heads/${branch}`, sha: res.body.commitSha });
    expect(pull!.body).toEqual({ title: 'Add lint', body: 'Lints every push.', head: branch, base: 'main' });
    expect(res.body).toEqual({
      pullRequest: { url: 'https://ghe.acme.test/acme/api/pull/42', number: 42, branch, baseBranch: 'main', title: 'Add lint' },
      commitSha: res.body.commitSha,
      action: 'create',
      workflowPath: '.github/workflows/lint.yml',
    });
    const listed = await t.request<{ pullRequests: Record<string, unknown>[] }>(
      'GET',
      '/api/v0/automations/ci/pull-requests?repoUrl=https://ghe.acme.test/acme/api',
      { key: org.ownerKey },
    );
    expect(listed.body.pullRequests[0]).toMatchObject({
      host: 'github',
      repoId: 'ghe.acme.test/acme/api',
      repoUrl: 'https://ghe.acme.test/acme/api',
      number: 42,
      url: 'https://ghe.acme.test/acme/api/pull/42',
      branch,
    });
    const one = await t.request('GET', `/api/v0/automations/ci/pull-requests/${String(listed.body.pullRequests[0]!.id).toUpperCase()}`, { key: org.ownerKey });
    expect(one.body).toEqual(listed.body.pullRequests[0]);
    for (const id of ['nope', '5f1d7c1a-7a43-4c1e-9d3e-2b9f0d8e7c6b']) {
      expect(expectErrorObject(await t.request('GET', `/api/v0/automations/ci/pull-requests/${id}`, { key: org.ownerKey }), 404).metadata?.code).toBe(
        'pull_request_not_found',
      );
    }
  });

  it('delete with a baseBranch: no repository lookup, and the file leaves the tree as an entry with sha null', async () => {
    const res = await edit({ action: 'delete', workflowPath: EXISTING, baseBranch: 'main' });
    expect(res.status).toBe(200);
    expect(github.sequence()[0]).toBe('GET /repos/acme/api/git/ref/heads/main');
    expect(github.sequence()).not.toContain('GET /repos/acme/api');
    const tree = github.requests.find((r) => r.path.endsWith('/git/trees'))!;
    expect(tree.body).toEqual({ base_tree: GitHubApiTestDouble.BASE_TREE, tree: [{ path: EXISTING, mode: '100644', type: 'blob', sha: null }] });
  });

  it('edit: the new content in one tree entry', async () => {
    const res = await edit({ action: 'edit', workflowPath: EXISTING, content: NEW });
    expect(res.status).toBe(200);
    const tree = github.requests.find((r) => r.path.endsWith('/git/trees'))!;
    expect((tree.body?.tree as unknown[])[0]).toEqual({ path: EXISTING, mode: '100644', type: 'blob', content: NEW });
  });

  it('404 for a missing repository, base branch or workflow; 409 for create of an existing file or an unchanged edit; no write request', async () => {
    expect(expectErrorObject(await edit({ repoUrl: 'https://ghe.acme.test/acme/missing', action: 'delete', workflowPath: EXISTING }), 404).detail).toContain(
      'Repository',
    );
    expect(
      expectErrorObject(await edit({ repoUrl: 'https://ghe.acme.test/acme/missing', action: 'delete', workflowPath: EXISTING, baseBranch: 'main' }), 404)
        .detail,
    ).toContain('Repository');
    expect(expectErrorObject(await edit({ action: 'delete', workflowPath: EXISTING, baseBranch: 'nope' }), 404).detail).toContain('Base branch nope');
    expect(expectErrorObject(await edit({ action: 'edit', workflowPath: '.github/workflows/none.yml', content: NEW }), 404).detail).toContain('none.yml');
    expect(expectErrorObject(await edit({ action: 'create', workflowPath: EXISTING, content: NEW }), 409).detail).toContain('already exists');
    expect(expectErrorObject(await edit({ action: 'edit', workflowPath: EXISTING, content: OLD }), 409).detail).toContain('already has this content');
    expect(github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("502 with GitHub's status and message when GitHub fails", async () => {
    github.failOn('GET', /\/git\/ref\//, 401, 'Bad credentials');
    const err = expectErrorObject(await edit({ action: 'delete', workflowPath: EXISTING }), 502);
    expect(err.detail).toContain('401');
    expect(err.detail).toContain('Bad credentials');
    expect(err.metadata).toMatchObject({ githubStatus: 401 });
  });

  it('502 when the pull request cannot be opened, and the branch it made is deleted again; nothing recorded', async () => {
    github.failOn('POST', /\/pulls$/, 422, 'Validation Failed');
    const before = (await t.request<{ pullRequests: unknown[] }>('GET', '/api/v0/automations/ci/pull-requests?limit=100', { key: org.ownerKey })).body
      .pullRequests.length;
    const err = expectErrorObject(await edit({ action: 'delete', workflowPath: EXISTING }), 502);
    expect(err.detail).toContain('Validation Failed');
    const created = github.requests.find((r) => r.path.endsWith('/git/refs'))!.body!.ref as string;
    expect(github.sequence().at(-1)).toBe(`DELETE /repos/acme/api/git/${created}`);
    expect(github.branchesOf('acme/api')).toEqual(['main']);
    expect(
      (await t.request<{ pullRequests: unknown[] }>('GET', '/api/v0/automations/ci/pull-requests?limit=100', { key: org.ownerKey })).body.pullRequests.length,
    ).toBe(before);
  });
});
