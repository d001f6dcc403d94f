import { describe, expect, it } from 'vitest';
import { BARE_MACHINE, commit, evaluate, gitIn, makeRepo, NODE_APP } from './fixtures.js';

/** Each pattern where the evaluator used to disagree with the agent's own reports, fixed to the criterion's meaning. */

const day = (n: number) => `2026-0${n < 29 ? 6 : 7}-${String(((n - 1) % 28) + 1).padStart(2, '0')}T12:00:00Z`;

/** A repository whose `n` commits land one a day, each subject made by `subject`. */
function history(n: number, subject: (i: number) => string, files = NODE_APP): string {
  const dir = makeRepo(files, { date: day(1), message: subject(0) });
  for (let i = 1; i < n; i++) commit(dir, { [`f${i}.txt`]: String(i) }, { date: day(i + 1), message: subject(i) });
  return dir;
}

describe('forge criteria without a token: judged from the checkout and its history', () => {
  it('branch_protection passes when every recent commit on the branch came through a pull request, fails on direct pushes', async () => {
    const viaPrs = (await evaluate(history(12, (i) => `Change ${i} (#${100 + i})`))).report.report.branch_protection!;
    expect(viaPrs).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/12 of the last 12 commits on main arrived through pull requests.*rules not read: no GitHub token/),
    });
    const direct = (await evaluate(history(12, (i) => (i % 2 ? `Change ${i} (#${i})` : `wip ${i}`)))).report.report.branch_protection!;
    expect(direct).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/6 were pushed directly, e\.g\. [0-9a-f]+ "wip/) });
  });

  it('branch_protection passes on a settings-app file requiring reviews', async () => {
    const settings = {
      ...NODE_APP,
      '.github/settings.yml': 'branches:\n  - name: main\n    protection:\n      required_pull_request_reviews:\n        required_approving_review_count: 1\n',
    };
    expect((await evaluate(makeRepo(settings))).report.report.branch_protection).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/\.github\/settings\.yml protects main with required pull request reviews/),
    });
  });

  it('deployment_frequency counts release tags in the 4 weeks before HEAD; a deploy-on-push workflow counts pushes', async () => {
    const tagged = history(10, (i) => `release ${i}`);
    for (let i = 0; i < 10; i++) gitIn(tagged, 'tag', `v1.${i}.0`, `HEAD~${9 - i}`);
    expect((await evaluate(tagged)).report.report.deployment_frequency).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/^10 release tags in the 28 days before HEAD \(git tags, newest v1\.9\.0\)/),
    });
    const rare = history(3, (i) => `release ${i}`);
    gitIn(rare, 'tag', 'v0.1.0');
    expect((await evaluate(rare)).report.report.deployment_frequency).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/^1 release tags .*the last, v0\.1\.0, 0 days before it/),
    });
    const cd = {
      ...NODE_APP,
      '.github/workflows/deploy.yml':
        'on:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./scripts/deploy.sh\n',
    };
    expect((await evaluate(history(9, (i) => `c${i}`, cd))).report.report.deployment_frequency).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/\.github\/workflows\/deploy\.yml deploys on every push to the default branch, and 9 commits landed/),
    });
  });

  it('fast_ci_feedback passes when every pull-request job is capped at 10 minutes, is skipped when durations are not in the configuration', async () => {
    const wf = (timeout: string) => ({
      ...NODE_APP,
      '.github/workflows/ci.yml': `on: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n${timeout}    steps:\n      - run: npm test\n`,
    });
    expect((await evaluate(makeRepo(wf('    timeout-minutes: 8\n')))).report.report.fast_ci_feedback).toMatchObject({ numerator: 1 });
    expect((await evaluate(makeRepo(wf('')))).report.report.fast_ci_feedback).toMatchObject({
      numerator: null,
      rationale: expect.stringMatching(/job test: timeout-minutes unset\); run times not read: no GitHub token/),
    });
    expect((await evaluate(makeRepo(NODE_APP))).report.report.fast_ci_feedback).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/no workflow runs on pull requests/),
    });
  });

  it('automated_pr_review passes on a review bot configuration, saying its comments were not read', async () => {
    expect((await evaluate(makeRepo({ ...NODE_APP, '.coderabbit.yaml': 'reviews:\n  profile: chill\n' }))).report.report.automated_pr_review).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/\.coderabbit\.yaml \(review bot configuration\); the comments it posts were not read: no GitHub token/),
    });
  });

  it('code_quality_metrics passes on a README quality badge', async () => {
    const badge = {
      ...NODE_APP,
      'README.md': '# App\n\n[![codecov](https://codecov.io/gh/acme/app/branch/main/graph/badge.svg)](https://codecov.io/gh/acme/app)\n',
    };
    expect((await evaluate(makeRepo(badge))).report.report.code_quality_metrics).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/README\.md:3 \(quality tracking badge/),
    });
  });
});

describe('evidence that is not evidence', () => {
  it('a match under vendor/, third_party/ or node_modules/ counts for nothing', async () => {
    const vendored = {
      ...NODE_APP,
      'vendor/lib/.eslintrc.json': '{}',
      'third_party/x/.prettierrc': '{}',
      'node_modules/pino/package.json': '{"name":"pino"}',
      'vendor/lib/.pre-commit-config.yaml': 'repos:\n  - repo: local\n    hooks:\n      - id: x\n',
    };
    const r = (await evaluate(makeRepo(vendored))).report.report;
    for (const id of ['lint_config', 'formatter', 'pre_commit_hooks']) expect(r[id]).toMatchObject({ numerator: 0 });
  });

  it('a bare "TODO" in a workflow is not a TODO scanner; a scanning tool or a search for markers is', async () => {
    const bare = {
      ...NODE_APP,
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  todo:\n    name: TODO list\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo done # TODO: speed up\n',
    };
    expect((await evaluate(makeRepo(bare))).report.report.tech_debt_tracking).toMatchObject({ numerator: 0 });
    const scan = {
      ...NODE_APP,
      '.github/workflows/ci.yml': 'on: push\njobs:\n  debt:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx leasot "src/**/*.ts"\n',
    };
    expect((await evaluate(makeRepo(scan))).report.report.tech_debt_tracking).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/\.github\/workflows\/ci\.yml:6 \(TODO\/FIXME scanner in CI: "leasot/),
    });
  });

  it('a tool named only in a workflow comment or a step title is not configured', async () => {
    const named = {
      ...NODE_APP,
      '.github/workflows/ci.yml': '# we should add gitleaks\non: push\njobs:\n  a:\n    steps:\n      - name: gitleaks later\n        run: npm test\n',
    };
    expect((await evaluate(makeRepo(named))).report.report.secret_scanning).toMatchObject({ numerator: 0 });
  });

  it('a hook file that configures no hook, and a Dependabot file with no updates, do not pass', async () => {
    const empty = { ...NODE_APP, '.pre-commit-config.yaml': 'repos: []\n', '.github/dependabot.yml': 'version: 2\n' };
    const r = (await evaluate(makeRepo(empty))).report.report;
    expect(r.pre_commit_hooks).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/\.pre-commit-config\.yaml configure no hook/) });
    expect(r.dependency_update_automation).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/has no updates entries/) });
  });
});

describe('monorepos and the evaluating machine', () => {
  it("an application's lint and naming rules come from the repository's shared config package it depends on", async () => {
    const mono = {
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['apps/*', 'packages/*'] }),
      'apps/web/package.json': JSON.stringify({ name: 'web', scripts: { start: 'vite' }, devDependencies: { '@acme/eslint-config': '*' } }),
      'apps/api/package.json': JSON.stringify({ name: 'api', scripts: { start: 'node .' } }),
      'packages/eslint-config/package.json': JSON.stringify({ name: '@acme/eslint-config', private: true }),
      'packages/eslint-config/eslint.config.js': "export default [{ rules: { '@typescript-eslint/naming-convention': 'error' } }];\n",
    };
    const r = (await evaluate(makeRepo(mono))).report.report;
    expect(r.lint_config).toMatchObject({
      numerator: 1,
      denominator: 2,
      rationale: expect.stringMatching(/^1\/2 \(passes in apps\/web; fails in apps\/api\): apps\/web: found packages\/eslint-config\/eslint\.config\.js/),
    });
    expect(r.naming_consistency).toMatchObject({ numerator: 1, denominator: 2 });
  });

  it('vcs_cli_tools says it checked the evaluating machine, and where', async () => {
    const r = (await evaluate(makeRepo(NODE_APP), { probe: { ...BARE_MACHINE, where: () => 'host ci-7' } })).report.report.vcs_cli_tools!;
    expect(r.rationale).toMatch(/a property of host ci-7, not of the repository; checked `gh auth status` and `glab auth status`/);
  });
});
