import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { commit, gitIn, makeRepo, type Files } from '../evaluate/fixtures.js';

type Report = Record<string, { numerator: number | null; denominator: number }>;
const NO_FORGE = { GITHUB_TOKEN: '', GITHUB_API_URL: '' };
const verdict = (r: { numerator: number | null; denominator: number }) => (r.numerator === null ? 'skip' : r.numerator === r.denominator ? 'pass' : 'fail');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function evaluate(dir: string): Promise<Report> {
  const res = await runCli(['readiness', 'evaluate', dir, '--json'], NO_FORGE);
  expect(res.code, res.stderr).toBe(0);
  return (JSON.parse(res.stdout) as { report: Report }).report;
}

/** What a user sees of their checkout: HEAD, branches, status; fix must leave all of it as it was, but for its one new branch. */
const state = (dir: string) => ({
  head: gitIn(dir, 'rev-parse', 'HEAD').trim(),
  current: gitIn(dir, 'symbolic-ref', '--short', 'HEAD').trim(),
  status: gitIn(dir, 'status', '--porcelain', '--untracked-files=all'),
});
const branches = (dir: string) => gitIn(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').trim().split('\n');

/** Evaluate, fix, evaluate the new branch: the targeted criteria pass and every other verdict stays. */
async function fixAndCompare(dir: string, args: string[] = []) {
  const before = await evaluate(dir);
  const userState = state(dir);
  const res = await runCli(['readiness', 'fix', dir, ...args], NO_FORGE);
  expect(res.code, res.stderr).toBe(0);
  expect(res.stderr).toBe('');
  expect(state(dir)).toEqual(userState);
  const branch = /new branch (\S+) \(/.exec(res.stdout)![1]!;
  const targeted = [...res.stdout.matchAll(/^\| ([a-z_]+) \| (pass|fail|skip) \| (pass|fail|skip) \|$/gm)].map((m) => m[1]!);
  gitIn(dir, 'switch', '-q', branch);
  const after = await evaluate(dir);
  gitIn(dir, 'switch', '-q', userState.current);
  for (const id of targeted) expect([id, verdict(after[id]!)]).toEqual([id, 'pass']);
  for (const id of Object.keys(before).filter((i) => !targeted.includes(i))) expect([id, verdict(after[id]!)]).toEqual([id, verdict(before[id]!)]);
  const added = gitIn(dir, 'diff', '--name-status', `${userState.head}..${branch}`).trim().split('\n');
  expect(added.every((l) => l.startsWith('A\t'))).toBe(true);
  return { res, branch, targeted, added: added.map((l) => l.slice(2)).sort() };
}

const NODE_SERVICE: Files = {
  'package.json': JSON.stringify({ name: 'shop', scripts: { build: 'tsc', test: 'vitest run', lint: 'eslint .', dev: 'node dist/main.js' } }),
  'package-lock.json': '{}',
  'README.md': '# Shop\n',
  'src/main.ts': 'const port = Number(process.env.PORT ?? "8080");\nconst url = process.env.DATABASE_URL;\nif (port) {\n  start(url);\n}\n',
  'src/main.test.ts': "it('starts', () => {\n  expect(1).toBe(1);\n});\n",
  '.github/workflows/ci.yml': 'on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n',
};

describe('orgctl readiness fix', () => {
  it('on a Node service: every targeted criterion passes on the new branch and no other verdict changes', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    writeFileSync(path.join(dir, 'src/extra.ts'), 'export const extra = 1;\n');
    gitIn(dir, 'add', '-A');
    execFileSync('git', ['-c', 'user.name=Ann', '-c', 'user.email=ann@acme.test', 'commit', '-q', '-m', 'more'], { cwd: dir });
    const { targeted, added, branch } = await fixAndCompare(dir);
    expect(targeted).toEqual(
      expect.arrayContaining(['agents_md', 'codeowners', 'dependency_update_automation', 'devcontainer', 'env_template', 'pr_templates']),
    );
    expect(added).toEqual(
      [
        '.devcontainer/devcontainer.json',
        '.editorconfig',
        '.env.example',
        '.github/CODEOWNERS',
        '.github/ISSUE_TEMPLATE/bug_report.yml',
        '.github/ISSUE_TEMPLATE/feature_request.yml',
        '.github/dependabot.yml',
        '.github/pull_request_template.md',
        'AGENTS.md',
      ].sort(),
    );
    const show = (f: string) => gitIn(dir, 'show', `${branch}:${f}`);
    // Content derived from the checkout, not placeholders.
    expect(show('.github/CODEOWNERS')).toMatch(/^\* (ann@acme\.test t@x|t@x ann@acme\.test)$/m);
    expect(show('.env.example')).toContain('DATABASE_URL=\n');
    expect(show('.env.example')).toContain('PORT=8080\n');
    expect(show('AGENTS.md')).toContain('```sh\nnpm ci\n```');
    expect(show('AGENTS.md')).toContain('`.github/workflows/ci.yml`');
    expect(show('.github/dependabot.yml')).toMatch(/package-ecosystem: npm[\s\S]*package-ecosystem: github-actions/);
    expect(JSON.parse(show('.devcontainer/devcontainer.json'))).toMatchObject({
      features: { 'ghcr.io/devcontainers/features/node:1': {} },
      postCreateCommand: 'npm ci',
    });
    expect(show('.editorconfig')).toContain('[*.yml]\nindent_style = space\nindent_size = 2\n');
  });

  it('never overwrites or shadows a file: existing AGENTS.md, root CODEOWNERS and an untracked .env.example are left alone', async () => {
    const dir = makeRepo(
      {
        ...NODE_SERVICE,
        'AGENTS.md': 'short\n',
        CODEOWNERS: '# nobody yet\n',
        'services/api/go.mod': 'module acme/api\n\ngo 1.22\n',
        'services/api/main.go': 'package main\n\nimport "os"\n\nfunc main() {\n\t_ = os.Getenv("API_PORT")\n}\n',
      },
      { origin: 'https://github.com/acme/shop.git' },
    );
    writeFileSync(path.join(dir, '.env.example'), 'MINE=1\n');
    const { res, added, branch } = await fixAndCompare(dir);
    expect(res.stdout).toMatch(/leave {2}agents-md: AGENTS\.md exists/);
    expect(res.stdout).toMatch(/leave {2}codeowners: CODEOWNERS exists/);
    expect(res.stdout).toMatch(/leave {2}env-example: \.env\.example exists in the working tree/);
    expect(added).not.toContain('AGENTS.md');
    expect(added).not.toContain('.github/CODEOWNERS');
    expect(added).not.toContain('.env.example');
    expect(gitIn(dir, 'show', `${branch}:AGENTS.md`)).toBe('short\n');
    expect(gitIn(dir, 'show', `${branch}:.github/dependabot.yml`)).toContain('package-ecosystem: gomod\n    directory: "/services/api"');
  });

  it('on a GitLab remote: CODEOWNERS and the templates where GitLab reads them, Markdown issue templates, Renovate; each passes', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'git@gitlab.com:acme/shop.git' });
    const { added, targeted, branch } = await fixAndCompare(dir, ['--only', 'codeowners,pr-template,issue-templates,dependency-updates']);
    expect(targeted).toEqual(expect.arrayContaining(['codeowners', 'dependency_update_automation', 'issue_templates', 'pr_templates']));
    expect(added).toEqual(
      [
        '.gitlab/CODEOWNERS',
        '.gitlab/issue_templates/Bug.md',
        '.gitlab/issue_templates/Feature.md',
        '.gitlab/merge_request_templates/Default.md',
        'renovate.json',
      ].sort(),
    );
    expect(gitIn(dir, 'show', `${branch}:.gitlab/issue_templates/Bug.md`)).toMatch(/^## What happened\n/);
  });

  it('--dry-run prints the plan and git diff of every file, and changes nothing', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    const userState = state(dir);
    const refs = branches(dir);
    const res = await runCli(['readiness', 'fix', dir, '--dry-run'], NO_FORGE);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('diff --git a/AGENTS.md b/AGENTS.md\nnew file mode 100644\n');
    expect(res.stdout).toContain('--- /dev/null\n+++ b/.github/CODEOWNERS\n');
    expect(res.stdout).toContain('Dry run: nothing was written');
    expect(state(dir)).toEqual(userState);
    expect(branches(dir)).toEqual(refs);
  });

  it('refuses an existing branch, and says when there is nothing to fix', async () => {
    const dir = makeRepo(NODE_SERVICE, { origin: 'https://github.com/acme/shop.git' });
    gitIn(dir, 'branch', 'taken');
    const res = await runCli(['readiness', 'fix', dir, '--branch', 'taken'], NO_FORGE);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('The branch taken already exists');
    expect(gitIn(dir, 'rev-parse', 'taken')).toBe(gitIn(dir, 'rev-parse', 'HEAD'));
    const second = await runCli(['readiness', 'fix', dir, '--only', 'codeowners', '--branch', 'fix-1'], NO_FORGE);
    expect(second.code, second.stderr).toBe(0);
    gitIn(dir, 'switch', '-q', 'fix-1');
    const again = await runCli(['readiness', 'fix', dir, '--only', 'codeowners'], NO_FORGE);
    expect(again.stdout).toContain('leave  codeowners: .github/CODEOWNERS exists');
    expect(again.stdout).toContain('Nothing to write.');
  });

  it('--open-pr through the plain Git host: one branch on the remote with one commit adding the files, the evaluation in its message', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'orgctl-fix-remote-'));
    dirs.push(root);
    const bare = path.join(root, 'origin.git');
    gitIn(root, 'init', '--bare', '-q', bare);
    const dir = makeRepo(NODE_SERVICE, { origin: `file://${bare}` });
    gitIn(dir, 'push', '-q', 'origin', 'main');
    commit(dir, { 'src/later.ts': 'export const later = process.env.LATER_FLAG;\n' }, { message: 'local only' });
    const userState = state(dir);
    const refs = branches(dir);
    const res = await runCli(['readiness', 'fix', dir, '--open-pr', '--branch', 'readiness/fix'], NO_FORGE);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Pushed the branch readiness\/fix \([0-9a-f]{12}\) to file:\/\/\S+origin\.git, based on main/);
    expect(state(dir)).toEqual(userState);
    expect(branches(dir)).toEqual(refs);
    expect(gitIn(bare, 'rev-list', 'main..readiness/fix').trim().split('\n')).toHaveLength(1);
    const added = gitIn(bare, 'diff', '--name-status', 'main', 'readiness/fix').trim().split('\n');
    expect(added.every((l) => l.startsWith('A\t'))).toBe(true);
    // Not a GitHub remote: Renovate, which runs on any forge, instead of Dependabot.
    expect(added).toContain('A\trenovate.json');
    expect(added).not.toContain('A\t.github/dependabot.yml');
    const message = gitIn(bare, 'log', '-1', '--format=%B', 'readiness/fix');
    expect(message).toMatch(/^Readiness: add the files agents and reviewers look for\n/);
    expect(message).toContain('## Readiness before and after');
    expect(message).toMatch(/^\| codeowners \| fail \| pass \|$/m);
    expect(message).toContain('No other criterion changed.');
    // The files come from the local HEAD; the remote's base never held LATER_FLAG's reader, its .env.example does.
    expect(gitIn(bare, 'show', 'readiness/fix:.env.example')).toContain('LATER_FLAG=');
  });
});
