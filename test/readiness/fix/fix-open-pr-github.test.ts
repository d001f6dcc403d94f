import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { GitHubApiTestDouble } from '../../helpers/github-api-test-double.js';
import { gitIn, makeRepo, type Files } from '../evaluate/fixtures.js';

// github.com cannot be reached from a test: GITHUB_API_URL points the CLI at the GitHub API test double.
const TOKEN = 'ghp_test-token-0123456789';
const TITLE = 'Readiness: add the files agents and reviewers look for';
const BASE = GitHubApiTestDouble.BASE_COMMIT;

const NODE_SERVICE: Files = {
  'package.json': JSON.stringify({ name: 'shop', scripts: { build: 'tsc', test: 'vitest run', lint: 'eslint .' } }),
  'package-lock.json': '{}',
  'README.md': '# Shop\n',
  'src/main.ts': 'const url = process.env.DATABASE_URL;\nconsole.log(url);\n',
  '.github/workflows/ci.yml': 'on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n',
};

let dotcom: GitHubApiTestDouble;
let enterprise: GitHubApiTestDouble;
beforeAll(async () => {
  // api.github.com serves the API at its root; GitHub Enterprise Server under /api/v3 of its own host.
  [dotcom, enterprise] = await Promise.all([GitHubApiTestDouble.start('', 'github.com'), GitHubApiTestDouble.start('/api/v3')]);
});
afterAll(async () => {
  await Promise.all([dotcom?.close(), enterprise?.close()]);
});

const state = (dir: string) => ({
  head: gitIn(dir, 'rev-parse', 'HEAD').trim(),
  refs: gitIn(dir, 'for-each-ref', '--format=%(refname)'),
  status: gitIn(dir, 'status', '--porcelain', '--untracked-files=all'),
});

/** The requests that write: the tree, the commit, the branch and the pull request, in this order. */
const writes = (double: GitHubApiTestDouble, repo: string) =>
  double.requests.filter((r) => r.method !== 'GET').map((r) => [`${r.method} ${r.path.slice(double.prefix.length).replace(`/repos/${repo}`, '')}`, r] as const);

/** Runs fix --open-pr against a double and checks what a reviewer gets: one commit that only adds files, described before and after. */
async function openPr(double: GitHubApiTestDouble, repo: string, dir: string, env: Record<string, string>, base = 'main') {
  double.requests.length = 0;
  const before = state(dir);
  const res = await runCli(['readiness', 'fix', dir, '--open-pr', '--branch', 'readiness/fix'], { GITHUB_TOKEN: TOKEN, ...env });
  expect(res.code, res.stderr).toBe(0);
  expect(state(dir)).toEqual(before);
  expect(double.requests.every((r) => r.authorization === `token ${TOKEN}` && r.path.startsWith(`${double.prefix}/repos/`))).toBe(true);
  const w = writes(double, repo);
  expect(w.map(([what]) => what)).toEqual(['POST /git/trees', 'POST /git/commits', 'POST /git/refs', 'POST /pulls']);
  const body = (i: number) => w[i]![1].body as Record<string, unknown>;
  const tree = body(0).tree as { path: string; mode: string; type: string; content?: string }[];
  // Only added files: every entry is a new blob with its content, none deleted (sha null) or reused.
  expect(tree.every((e) => e.mode === '100644' && e.type === 'blob' && typeof e.content === 'string' && !('sha' in e))).toBe(true);
  expect(body(0).base_tree).toBe(GitHubApiTestDouble.BASE_TREE);
  // Each file was looked up on the base commit first, and none was there.
  const looked = double.requests.filter((r) => r.method === 'GET' && r.path.includes('/contents/')).map((r) => r.path.split('/contents/')[1]);
  expect(looked.sort()).toEqual(tree.map((e) => e.path).sort());
  expect(body(1)).toMatchObject({ parents: [BASE] });
  expect(String(body(1).message)).toMatch(new RegExp(`^${TITLE}\n`));
  expect(body(2)).toEqual({ ref: 'refs/heads/readiness/fix', sha: expect.any(String) });
  const pull = body(3) as { title: string; body: string; head: string; base: string };
  expect(pull).toMatchObject({ title: TITLE, head: 'readiness/fix', base });
  expect(pull.body).toContain('## Readiness before and after');
  expect(pull.body).toMatch(/^Level \d -> \d \(80 % rule\); pass rate \d+ % -> \d+ %/m);
  expect(pull.body).toMatch(/^\| pr_templates \| fail \| pass \|$/m);
  expect(pull.body).toContain('No other criterion changed.');
  expect(res.stdout).toContain(`(readiness/fix into ${base})`);
  expect(res.stdout).toContain(`Opened pull request #42: https://${double.webHost}/${repo}/pull/42 `);
  expect(double.branchesOf(repo)).toEqual([base, 'readiness/fix'].sort());
  return { tree, pull, res };
}

describe('orgctl readiness fix --open-pr on GitHub (against the GitHub API test double)', () => {
  it('github.com: one branch, one commit adding the generated files on the default branch, the evaluation in the pull request', async () => {
    dotcom.addRepo('acme/shop', { 'README.md': '# Shop\n' });
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    const { tree, pull } = await openPr(dotcom, 'acme/shop', dir, { GITHUB_API_URL: dotcom.url });
    expect(dotcom.sequence().slice(0, 2)).toEqual(['GET /repos/acme/shop', 'GET /repos/acme/shop/git/ref/heads/main']);
    const paths = tree.map((e) => e.path);
    // A GitHub remote gets Dependabot, and the files land where GitHub reads them.
    expect(paths).toEqual(expect.arrayContaining(['.github/CODEOWNERS', '.github/pull_request_template.md', '.github/dependabot.yml', 'AGENTS.md']));
    expect(paths).not.toContain('renovate.json');
    expect(tree.find((e) => e.path === '.github/CODEOWNERS')!.content).toMatch(/^\* t@x$/m);
    expect(pull.body).toMatch(/^\| codeowners \| fail \| pass \|$/m);
    expect(pull.body).toMatch(/^\| dependency_update_automation \| fail \| pass \|$/m);
    for (const p of paths) expect(pull.body).toContain(`| \`${p}\` |`);
  });

  it('GitHub Enterprise (GITHUB_API_URL names its /api/v3): the same through the custom base URL; existing files are neither overwritten nor shadowed', async () => {
    enterprise.addRepo('acme/api', { 'README.md': '# api\n' }, 'trunk');
    const host = new URL(enterprise.url).host;
    // The checkout already has a root CODEOWNERS: no .github/CODEOWNERS may shadow it.
    const dir = makeRepo({ ...NODE_SERVICE, CODEOWNERS: '* @acme/core\n', 'AGENTS.md': '# Agents\n' }, { origin: `http://${host}/acme/api.git` });
    const { tree, pull, res } = await openPr(enterprise, 'acme/api', dir, { GITHUB_API_URL: enterprise.url }, 'trunk');
    expect(res.stdout).toContain('leave  codeowners: CODEOWNERS exists');
    expect(res.stdout).toContain('leave  agents-md: AGENTS.md exists');
    const paths = tree.map((e) => e.path);
    expect(paths).not.toContain('.github/CODEOWNERS');
    expect(paths).not.toContain('AGENTS.md');
    expect(paths).toContain('.github/dependabot.yml');
    // With a token the forge is read: Dependabot has opened no update pull request yet, which only time brings.
    expect(pull.body).toMatch(/^\| dependency_update_automation \| fail \| fail \|$/m);
    expect(pull.body).toContain('Passes once the forge acts on the new files: dependency_update_automation (');
    expect(res.stderr).toBe('');
    expect(pull.body).not.toMatch(/^\| codeowners \|/m);
    expect(pull.body).not.toMatch(/^\| agents_md \|/m);
    expect(enterprise.requests.every((r) => r.path.startsWith('/api/v3/'))).toBe(true);
  });

  it('a file the plan writes already exists on the base branch: refused before any write, exit 1, and nothing left on the host', async () => {
    enterprise.addRepo('acme/web', { 'README.md': '# web\n', '.github/pull_request_template.md': '## Why\n' });
    enterprise.requests.length = 0;
    const host = new URL(enterprise.url).host;
    const dir = makeRepo(NODE_SERVICE, { origin: `http://${host}/acme/web.git` });
    const res = await runCli(['readiness', 'fix', dir, '--open-pr'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: enterprise.url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('.github/pull_request_template.md already exists on main, and fix never overwrites a file: bring the checkout up to date');
    expect(enterprise.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(enterprise.branchesOf('acme/web')).toEqual(['main']);
  });
});
