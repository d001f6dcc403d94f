import { request as httpRequest } from 'node:http';
import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BareRemote, EXISTING_CONTENT, EXISTING_WORKFLOW, git } from '../helpers/git-remote.js';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const EDIT = '/api/v0/automations/ci/edit';
const LIST = '/api/v0/automations/ci/pull-requests';
const NEW_CONTENT = 'name: Lint\non:\n  pull_request:\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run lint\n';

interface Result {
  pullRequest: { url: string; number: number; branch: string; baseBranch: string; title: string };
  commitSha: string;
  action: string;
  workflowPath: string;
}

let t: TestApp;
let org: Org;
let remote: BareRemote;

beforeAll(async () => {
  // Local bare remotes are file:// URLs: allowed explicitly, as an on-premises installation would.
  t = await TestApp.start({
    ciAllowPrivateNetwork: true,
    ciGitAuthorName: 'orgctl bot',
    ciGitAuthorEmail: 'bot@orgctl.test',
    publicUrl: 'https://orgctl.acme.test/',
  });
  org = await t.createOrg('ci-org');
  remote = BareRemote.create();
});
afterAll(async () => {
  remote?.remove();
  await t?.close();
});

const edit = (body: Record<string, unknown>, key = org.ownerKey) => t.request<Result>('POST', EDIT, { key, body: { repoUrl: remote.url, ...body } });

/** The branch holds exactly one new commit on top of `base`, by the configured author. */
function expectOneCommit(res: Result, base = 'main') {
  const { branch } = res.pullRequest;
  expect(remote.branches()).toContain(branch);
  expect(remote.newCommits(branch, base)).toEqual([res.commitSha]);
  expect(remote.sha(`${branch}^`)).toBe(remote.sha(base));
  expect(git(remote.dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', branch)).toBe('orgctl bot <bot@orgctl.test>|orgctl bot <bot@orgctl.test>');
}

describe('CI edit on a plain Git remote', () => {
  it('create: one new branch, one commit adding exactly the file, and a recorded pull request', async () => {
    const branchesBefore = remote.branches();
    const res = await edit({ action: 'create', workflowPath: '.github/workflows/lint.yml', content: NEW_CONTENT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      action: 'create',
      workflowPath: '.github/workflows/lint.yml',
      pullRequest: { baseBranch: 'main', number: 1, title: 'Add CI workflow .github/workflows/lint.yml' },
    });
    expect(res.body.pullRequest.branch).toMatch(/^ci\/create-lint-[0-9a-f]{8}$/);
    expect(res.body.commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body.pullRequest.url).toMatch(/^https:\/\/orgctl\.acme\.test\/api\/v0\/automations\/ci\/pull-requests\/[0-9a-f-]{36}$/);
    expect(remote.branches()).toEqual([...branchesBefore, res.body.pullRequest.branch].sort());
    expectOneCommit(res.body);
    expect(remote.changes(res.body.pullRequest.branch)).toEqual(['A\t.github/workflows/lint.yml']);
    expect(remote.file(res.body.pullRequest.branch, '.github/workflows/lint.yml')).toBe(NEW_CONTENT);
    expect(remote.sha('main')).toBe(remote.sha('release'));

    const listed = await t.request<{ pullRequests: Record<string, unknown>[] }>('GET', LIST, { key: org.ownerKey });
    expect(listed.body.pullRequests[0]).toMatchObject({
      host: 'git',
      repoUrl: remote.url,
      number: 1,
      branch: res.body.pullRequest.branch,
      baseBranch: 'main',
      commitSha: res.body.commitSha,
      action: 'create',
      workflowPath: '.github/workflows/lint.yml',
      createdBy: org.ownerId,
    });
    const one = await t.request<{ id: string }>('GET', res.body.pullRequest.url.replace(/^https?:\/\/[^/]+/, ''), { key: org.ownerKey });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed.body.pullRequests[0]);
  });

  it('edit: one commit changing exactly the existing file, with the title and description given', async () => {
    const res = await edit({
      action: 'edit',
      workflowPath: EXISTING_WORKFLOW,
      content: NEW_CONTENT,
      title: 'Lint on pull requests',
      description: 'Why: faster feedback.',
    });
    expect(res.status).toBe(200);
    expect(res.body.pullRequest.branch).toMatch(/^ci\/edit-ci-[0-9a-f]{8}$/);
    expect(res.body.pullRequest.title).toBe('Lint on pull requests');
    expectOneCommit(res.body);
    expect(remote.changes(res.body.pullRequest.branch)).toEqual([`M\t${EXISTING_WORKFLOW}`]);
    expect(remote.file(res.body.pullRequest.branch, EXISTING_WORKFLOW)).toBe(NEW_CONTENT);
    expect(git(remote.dir, 'log', '-1', '--format=%B', res.body.pullRequest.branch)).toBe('Lint on pull requests\n\nWhy: faster feedback.');
  });

  it('delete: one commit removing exactly the file', async () => {
    const res = await edit({ action: 'delete', workflowPath: EXISTING_WORKFLOW });
    expect(res.status).toBe(200);
    expect(res.body.pullRequest.branch).toMatch(/^ci\/delete-ci-[0-9a-f]{8}$/);
    expectOneCommit(res.body);
    expect(remote.changes(res.body.pullRequest.branch)).toEqual([`D\t${EXISTING_WORKFLOW}`]);
  });

  it('targets baseBranch when given, and numbers pull requests of a repository 1, 2, 3...', async () => {
    const res = await edit({ action: 'create', workflowPath: '.github/workflows/release.yaml', content: NEW_CONTENT, baseBranch: 'release' });
    expect(res.status).toBe(200);
    expect(res.body.pullRequest.baseBranch).toBe('release');
    expectOneCommit(res.body, 'release');
    expect(res.body.pullRequest.number).toBe(4);
  });

  it('404 when the repository does not exist, nothing recorded', async () => {
    const before = (await t.request<{ pullRequests: unknown[] }>('GET', `${LIST}?limit=100`, { key: org.ownerKey })).body.pullRequests.length;
    const err = expectErrorObject(
      await edit({ repoUrl: `file://${remote.root}/missing.git`, action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT }),
      404,
    );
    expect(err.detail).toContain('Repository');
    expect((await t.request<{ pullRequests: unknown[] }>('GET', `${LIST}?limit=100`, { key: org.ownerKey })).body.pullRequests.length).toBe(before);
  });

  it('404 when the base branch does not exist', async () => {
    const err = expectErrorObject(await edit({ action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT, baseBranch: 'nope' }), 404);
    expect(err.detail).toContain('Base branch nope');
  });

  it('404 for edit and delete of a workflow that does not exist, 409 for create of one that does; no branch made', async () => {
    const before = remote.branches();
    const e1 = expectErrorObject(await edit({ action: 'edit', workflowPath: '.github/workflows/none.yml', content: NEW_CONTENT }), 404);
    expect(e1.detail).toContain('.github/workflows/none.yml');
    expectErrorObject(await edit({ action: 'delete', workflowPath: '.github/workflows/none.yml' }), 404);
    const e3 = expectErrorObject(await edit({ action: 'create', workflowPath: EXISTING_WORKFLOW, content: NEW_CONTENT }), 409);
    expect(e3.detail).toContain('already exists');
    expect(remote.branches()).toEqual(before);
  });

  it('404 for an empty repository when no baseBranch is given', async () => {
    const empty = BareRemote.empty();
    try {
      expectErrorObject(await edit({ repoUrl: empty.url, action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT }), 404);
      expect(empty.branches()).toEqual([]);
    } finally {
      empty.remove();
    }
  });

  it('409 when .github is a symbolic link: nothing is written through it, no branch is made', async () => {
    const linked = BareRemote.create('main', (dir) => {
      rmSync(path.join(dir, '.github'), { recursive: true });
      symlinkSync('/tmp', path.join(dir, '.github'));
    });
    try {
      const err = expectErrorObject(await edit({ repoUrl: linked.url, action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT }), 409);
      expect(err.detail).toContain('.github on main is not a directory (a symbolic link)');
      expect(linked.branches()).toEqual(['main', 'release']);
    } finally {
      linked.remove();
    }
  });

  it('409 for an edit that changes nothing', async () => {
    const err = expectErrorObject(await edit({ action: 'edit', workflowPath: EXISTING_WORKFLOW, content: EXISTING_CONTENT }), 409);
    expect(err.detail).toContain('already has this content');
  });

  it("502 with the remote's own message when it refuses the push; no branch, nothing recorded", async () => {
    const refusing = BareRemote.create();
    try {
      refusing.refusePushes('pushes are frozen by policy');
      const before = refusing.branches();
      const res = await edit({ repoUrl: refusing.url, action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT });
      const err = expectErrorObject(res, 502);
      expect(err.detail).toContain('pushes are frozen by policy');
      expect(err.title).toBe('Bad Gateway');
      expect(refusing.branches()).toEqual(before);
      const listed = await t.request<{ pullRequests: unknown[] }>('GET', `${LIST}?repoUrl=${encodeURIComponent(refusing.url)}`, { key: org.ownerKey });
      expect(listed.body.pullRequests).toEqual([]);
    } finally {
      refusing.remove();
    }
  });

  it('ten concurrent requests for the same workflow make ten distinct branches, each with its own commit', async () => {
    const other = BareRemote.create();
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => edit({ repoUrl: other.url, action: 'edit', workflowPath: EXISTING_WORKFLOW, content: `${NEW_CONTENT}# ${i}\n` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      const branches = results.map((r) => r.body.pullRequest.branch);
      expect(new Set(branches).size).toBe(10);
      expect(other.branches()).toEqual(['main', 'release', ...branches].sort());
      results.forEach((r, i) => {
        expect(other.newCommits(r.body.pullRequest.branch)).toEqual([r.body.commitSha]);
        expect(other.file(r.body.pullRequest.branch, EXISTING_WORKFLOW)).toBe(`${NEW_CONTENT}# ${i}\n`);
      });
      expect(results.map((r) => r.body.pullRequest.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    } finally {
      other.remove();
    }
  });

  it('lets owner, manager and member edit; a guest gets 403 and no branch is made', async () => {
    for (const role of ['manager', 'member'] as const) {
      const u = await t.addUser(org, role);
      expect((await edit({ action: 'create', workflowPath: `.github/workflows/${role}.yml`, content: NEW_CONTENT }, u.key)).status).toBe(200);
    }
    const before = remote.branches();
    const guest = await t.addUser(org, 'guest');
    expectErrorObject(await edit({ action: 'create', workflowPath: '.github/workflows/guest.yml', content: NEW_CONTENT }, guest.key), 403);
    expect(remote.branches()).toEqual(before);
    expectErrorObject(await t.request('POST', EDIT, { body: { repoUrl: remote.url, action: 'delete', workflowPath: EXISTING_WORKFLOW } }), 401);
  });

  it('pages the pull request list newest first without skipping or repeating, and filters by repository', async () => {
    const all = (await t.request<{ pullRequests: { id: string }[] }>('GET', `${LIST}?limit=100`, { key: org.ownerKey })).body.pullRequests.map((p) => p.id);
    expect(all.length).toBeGreaterThanOrEqual(7);
    const walked: string[] = [];
    let cursor = '';
    for (;;) {
      const page = (await t.request<{ pullRequests: { id: string }[] }>('GET', `${LIST}?limit=2${cursor}`, { key: org.ownerKey })).body.pullRequests;
      if (page.length === 0) break;
      walked.push(...page.map((p) => p.id));
      cursor = `&startAfter=${page.at(-1)!.id}`;
    }
    expect(walked).toEqual(all);
    const mine = (
      await t.request<{ pullRequests: { repoUrl: string }[] }>('GET', `${LIST}?limit=100&repoUrl=${encodeURIComponent(remote.url)}`, { key: org.ownerKey })
    ).body.pullRequests;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.repoUrl === remote.url)).toBe(true);
    expectErrorObject(await t.request('GET', `${LIST}?startAfter=00000000-0000-4000-8000-000000000000`, { key: org.ownerKey }), 400);
    expectErrorObject(await t.request('GET', `${LIST}/00000000-0000-4000-8000-000000000000`, { key: org.ownerKey }), 404);
    const other = await t.createOrg('ci-other-org');
    expect((await t.request<{ pullRequests: unknown[] }>('GET', LIST, { key: other.ownerKey })).body.pullRequests).toEqual([]);
  });
});

describe('without PUBLIC_URL', () => {
  it("records the address the request reached, never the caller's Host header, in the pull request everyone reads", async () => {
    const own = await TestApp.start({ ciAllowPrivateNetwork: true });
    const bare = BareRemote.create();
    try {
      const member = await own.addUser(await own.createOrg('host-org'), 'member');
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (own.app.server.address() as { port: number }).port;
      // node:http sends the Host header as given (fetch would put its own).
      const body = JSON.stringify({ repoUrl: bare.url, action: 'create', workflowPath: '.github/workflows/x.yml', content: NEW_CONTENT });
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: EDIT,
            method: 'POST',
            headers: {
              host: 'evil.example.com',
              authorization: `Bearer ${member.key}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer.status, answer.text).toBe(200);
      const url = (JSON.parse(answer.text) as Result).pullRequest.url;
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/api/v0/automations/ci/pull-requests/[0-9a-f-]{36}$`));
    } finally {
      bare.remove();
      await own.close();
    }
  });
});
