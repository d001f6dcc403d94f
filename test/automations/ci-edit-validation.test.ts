import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorObject, TestApp, type Org } from '../helpers/test-app.js';

const EDIT = '/api/v0/automations/ci/edit';
const GOOD = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  // The default policy: no private network, no file:// remotes.
  t = await TestApp.start({ ciGitHosts: 'github.com=github,localhost=git,127.0.0.1=git,10.0.0.8=git,169.254.169.254=git,[::1]=git,[::ffff:127.0.0.1]=git' });
  org = await t.createOrg('ci-validation-org');
});
afterAll(() => t?.close());

const edit = (body: Record<string, unknown>) =>
  t.request('POST', EDIT, {
    key: org.ownerKey,
    body: { repoUrl: 'https://github.com/acme/api', action: 'create', workflowPath: '.github/workflows/ci.yml', content: GOOD, ...body },
  });

const pathsOf = (err: { metadata?: Record<string, unknown> }) => (err.metadata?.errors as { path: string }[]).map((e) => e.path);

describe('CI edit body validation (before any Git host is contacted)', () => {
  it.each([
    ['no repoUrl', { repoUrl: undefined }, '/repoUrl'],
    ['an unknown action', { action: 'update' }, '/action'],
    ['no action', { action: undefined }, '/action'],
    ['no workflowPath', { workflowPath: undefined }, '/workflowPath'],
    ['a workflowPath outside .github/workflows', { workflowPath: '.github/ci.yml' }, '/workflowPath'],
    ['a workflowPath at the top level', { workflowPath: 'ci.yml' }, '/workflowPath'],
    ['a workflowPath with ..', { workflowPath: '.github/workflows/../../evil.yml' }, '/workflowPath'],
    ['a workflowPath of ..', { workflowPath: '.github/workflows/..' }, '/workflowPath'],
    ['a workflowPath in a subdirectory', { workflowPath: '.github/workflows/sub/ci.yml' }, '/workflowPath'],
    ['a workflowPath ending .json', { workflowPath: '.github/workflows/ci.json' }, '/workflowPath'],
    ['a workflowPath ending .yml.txt', { workflowPath: '.github/workflows/ci.yml.txt' }, '/workflowPath'],
    ['a workflowPath with a space', { workflowPath: '.github/workflows/my ci.yml' }, '/workflowPath'],
    ['a workflowPath with a leading slash', { workflowPath: '/.github/workflows/ci.yml' }, '/workflowPath'],
    ['create without content', { content: undefined }, '/content'],
    ['edit without content', { action: 'edit', content: undefined }, '/content'],
    ['delete with content', { action: 'delete' }, '/content'],
    ['content not a string', { content: { on: 'push' } }, '/content'],
    ['a baseBranch with ..', { baseBranch: 'main..x' }, '/baseBranch'],
    ['a baseBranch starting with -', { baseBranch: '-upload-pack=x' }, '/baseBranch'],
    ['a baseBranch with a space', { baseBranch: 'my branch' }, '/baseBranch'],
    ['a baseBranch ending .lock', { baseBranch: 'main.lock' }, '/baseBranch'],
    ['an empty title', { title: '' }, '/title'],
    ['a description not a string', { description: 5 }, '/description'],
    ['an unknown property', { force: true }, '/force'],
  ])('400 for %s', async (_name, body, path) => {
    const err = expectErrorObject(await edit(body), 400);
    expect(pathsOf(err)).toContain(path);
    expect(err.detail).toContain(path.slice(1));
  });

  it.each([
    ['a syntax error', 'on: push\njobs:\n  a: 1\n b: 2\n', 4, 1],
    ['a duplicate key', 'on: push\non: pull_request\njobs:\n  a: {}\n', 2, 1],
    ['an unclosed flow sequence', 'on: push\njobs:\n  build:\n    runs-on: [ubuntu\n', 5, 1],
    ['tab indentation', 'on: push\njobs:\n\tbuild: {}\n', 3, 1],
    ['no on', 'name: x\njobs:\n  a:\n    runs-on: x\n', 1, 1],
    ['no jobs', 'on: push\nname: x\n', 1, 1],
    ['empty jobs', 'on: push\njobs: {}\n', 2, 7],
    ['jobs as a list', 'on: push\njobs:\n  - a\n', 3, 3],
    ['a list at the top', '- on\n- jobs\n', 1, 1],
    ['an empty document', '', 1, 1],
  ])('400 with line and column for a workflow with %s', async (_name, content, line, column) => {
    const err = expectErrorObject(await edit({ content }), 400);
    expect(err.metadata).toMatchObject({ line, column });
    expect(pathsOf(err)).toEqual(['/content']);
    expect(err.detail).toContain(`line ${line}, column ${column}`);
  });
});

describe('which URLs the service acts on', () => {
  it.each([
    ['a host not on the allow-list', 'https://gitlab.example.com/acme/api.git', 'not on this server'],
    ['a file:// remote without the explicit switch', 'file:///tmp/repo.git', 'file://'],
    ['localhost, which resolves to loopback', 'http://localhost:9/acme/api.git', 'internal address'],
    ['a loopback address', 'https://127.0.0.1/acme/api.git', 'internal address'],
    ['a private address', 'ssh://git@10.0.0.8/acme/api.git', 'internal address'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', 'internal address'],
    ['IPv6 loopback', 'https://[::1]/acme/api.git', 'internal address'],
    ['IPv4 loopback mapped into IPv6', 'https://[::ffff:127.0.0.1]/acme/api.git', 'internal address'],
    ['scp-like syntax to a loopback host', 'git@localhost:acme/api.git', 'internal address'],
    ['an unsupported transport', 'ext::sh -c touch% /tmp/pwned', 'repository URL'],
    ['an unsupported scheme', 'ftp://github.com/acme/api', 'scheme'],
    ['a GitHub URL that names no repository', 'https://github.com/acme', 'GitHub repository'],
    ['an option in place of a URL', '--upload-pack=touch /tmp/x', 'repository URL'],
    ['a .. segment, which URL parsing would silently resolve', 'https://github.com/acme/../other/api', '.. segments'],
    ['a %2e%2e segment', 'https://github.com/acme/%2E%2E/other/api', '.. segments'],
    ['a .. segment in scp-like syntax', 'git@github.com:acme/../api.git', '.. segments'],
    ['a query in scp-like syntax, which git would take for part of the path', 'git@github.com:acme/api.git?token=t', 'query or fragment'],
    ['a password in scp-like syntax, which git would take for the host', 'git:pw@github.com:acme/api.git', 'repository URL'],
  ])('400 for %s, before any connection', async (_name, repoUrl, words) => {
    const err = expectErrorObject(await edit({ repoUrl }), 400);
    expect(pathsOf(err)).toEqual(['/repoUrl']);
    expect(err.detail).toContain(words);
  });

  it('502 (not 400) for a loopback remote once private addresses are explicitly allowed: the guard let it through', async () => {
    const open = await TestApp.start({ ciGitHosts: 'localhost=git,127.0.0.1=git', ciAllowPrivateNetwork: true, ciGitTimeoutMs: 10_000 });
    try {
      const owner = await open.createOrg('open-org');
      const res = await open.request('POST', EDIT, {
        key: owner.ownerKey,
        body: { repoUrl: 'http://localhost:9/acme/api.git', action: 'create', workflowPath: '.github/workflows/ci.yml', content: GOOD },
      });
      const err = expectErrorObject(res, 502);
      expect(err.detail).toContain('http://localhost:9/acme/api.git');
      const withSecret = await open.request('POST', EDIT, {
        key: owner.ownerKey,
        body: { repoUrl: 'http://deploy:s3cr3t-token@localhost:9/acme/api.git', action: 'create', workflowPath: '.github/workflows/ci.yml', content: GOOD },
      });
      expect(expectErrorObject(withSecret, 502).detail).toContain('localhost:9/acme/api.git');
      expect(withSecret.raw).not.toContain('s3cr3t-token');
      // scp-like, a token as the ssh login: the answer names the remote without it.
      const scp = await open.request('POST', EDIT, {
        key: owner.ownerKey,
        body: { repoUrl: 's3cr3t-login@127.0.0.1:acme/api.git', action: 'create', workflowPath: '.github/workflows/ci.yml', content: GOOD },
      });
      expect([404, 502], scp.raw).toContain(scp.status);
      expect(scp.raw).toContain('127.0.0.1:acme/api.git');
      expect(scp.raw).not.toContain('s3cr3t-login');
    } finally {
      await open.close();
    }
  });

  it('502 when GitHub is on the list but no token is configured', async () => {
    const err = expectErrorObject(await edit({}), 502);
    expect(err.detail).toContain('GITHUB_TOKEN');
  });
});
