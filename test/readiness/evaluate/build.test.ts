import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BARE_MACHINE, commit, criterionCases, deps, evaluate, makeRepo, NODE_APP, pkg, workflow } from './fixtures.js';
import { ForgeDouble, healthyForge, neglectedForge } from './forge-double.js';

const twoApps = {
  'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['apps/*'] }),
  'apps/web/package.json': JSON.stringify({ name: 'web', scripts: { start: 'node .' } }),
  'apps/api/package.json': JSON.stringify({ name: 'api', scripts: { start: 'node .' } }),
};
const deployed = { ...NODE_APP, Dockerfile: 'FROM node:20\n' };

criterionCases('Build System (offline)', [
  {
    id: 'build_cmd_doc',
    pass: { ...NODE_APP, 'README.md': '# App\n\n```\nnpm ci\nnpm run build\n```\n' },
    passNames: /README\.md(:\d+)? \(build\/install command: "npm ci/,
    fail: { ...NODE_APP, 'README.md': '# App\n' },
    failNames: /build\/install command/,
  },
  {
    id: 'deps_pinned',
    pass: { ...NODE_APP, 'package-lock.json': '{}' },
    passNames: /package-lock\.json(:\d+)? \(lockfile\)/,
    fail: { 'requirements.txt': 'requests>=2\n' },
    failNames: /no lockfile committed.*requirements\.txt/,
  },
  {
    id: 'agentic_development',
    pass: { ...NODE_APP, '.claude/settings.json': '{}' },
    passNames: /\.claude\/settings\.json(:\d+)? \(agent configuration\)/,
    fail: NODE_APP,
    failNames: /agent configuration/,
  },
  {
    id: 'build_performance_tracking',
    pass: { ...NODE_APP, '.github/workflows/ci.yml': 'jobs:\n  b:\n    steps:\n      - uses: actions/cache@v4\n' },
    passNames: /ci\.yml(:\d+)? \(build caching in CI: "actions\/cache/,
    fail: { ...NODE_APP, ...workflow('npm test') },
    failNames: /build caching/,
    skip: NODE_APP,
    skipNames: /no CI configuration/,
  },
  {
    id: 'single_command_setup',
    pass: { ...NODE_APP, 'README.md': 'Run `npm run dev` after cloning.\n' },
    passNames: /README\.md(:\d+)? \(setup\/run command: "npm run dev/,
    fail: { ...NODE_APP, 'README.md': '# App\n' },
    failNames: /setup\/run command/,
  },
  {
    id: 'feature_flag_infrastructure',
    pass: deps('@growthbook/growthbook'),
    passNames: /feature-flag SDK: "@growthbook\/growthbook/,
    fail: NODE_APP,
    failNames: /feature-flag SDK/,
  },
  {
    id: 'release_notes_automation',
    pass: { ...NODE_APP, '.changeset/config.json': '{}' },
    passNames: /\.changeset\/config\.json/,
    fail: NODE_APP,
    failNames: /release notes tool/,
  },
  {
    id: 'progressive_rollout',
    pass: { ...deployed, 'k8s/rollout.yaml': 'kind: Rollout\nspec:\n  strategy:\n    canary: {}\n' },
    passNames: /k8s\/rollout\.yaml(:\d+)? \(canary or percentage rollout/,
    fail: deployed,
    failNames: /canary or percentage rollout/,
    skip: NODE_APP,
    skipNames: /not an infrastructure repository/,
  },
  {
    id: 'rollback_automation',
    pass: { ...deployed, 'scripts/rollback.sh': 'kubectl rollout undo' },
    passNames: /scripts\/rollback\.sh/,
    fail: deployed,
    failNames: /rollback/,
    skip: NODE_APP,
    skipNames: /not an infrastructure repository/,
  },
  {
    id: 'monorepo_tooling',
    pass: twoApps,
    passNames: /2 applications declared by package\.json workspaces/,
    fail: {
      ...twoApps,
      'package.json': JSON.stringify({ name: 'root' }),
      'apps/api/pyproject.toml': '[project]\nname="api"\n',
      'apps/web/pyproject.toml': '[project]\nname="web"\n',
    },
    failNames: /monorepo tool config/,
    skip: NODE_APP,
    skipNames: /single application \(\.\)/,
  },
  {
    id: 'heavy_dependency_detection',
    pass: { ...pkg({ devDependencies: { vite: '5.0.0', 'size-limit': '11.0.0' } }) },
    passNames: /bundle analysis tool: "size-limit/,
    fail: pkg({ devDependencies: { vite: '5.0.0' } }),
    failNames: /bundle size config/,
    skip: NODE_APP,
    skipNames: /not a bundled app/,
  },
  {
    id: 'unused_dependencies_detection',
    pass: pkg({ devDependencies: { depcheck: '1.4.7' } }),
    passNames: /unused-dependency tool: "depcheck/,
    fail: NODE_APP,
    failNames: /unused-dependency tool/,
  },
  {
    id: 'version_drift_detection',
    pass: { ...twoApps, '.syncpackrc': '{}' },
    passNames: /\.syncpackrc(:\d+)? \(syncpack config\)/,
    fail: twoApps,
    failNames: /syncpack/,
    skip: NODE_APP,
    skipNames: /single application/,
  },
  {
    id: 'release_automation',
    pass: { ...NODE_APP, ...workflow('npx semantic-release') },
    passNames: /ci\.yml(:\d+)? \(release or deploy automation in CI: "semantic-release/,
    fail: NODE_APP,
    failNames: /release tool config/,
  },
  {
    id: 'dead_feature_flag_detection',
    pass: { ...deps('@growthbook/growthbook'), 'docs/flags.md': 'We remove stale flags every sprint.\n' },
    passNames: /docs\/flags\.md(:\d+)? \(documented flag clean-up/,
    fail: deps('@growthbook/growthbook'),
    failNames: /stale-flag detection/,
    skip: NODE_APP,
    skipNames: /prerequisite feature_flag_infrastructure/,
  },
]);

describe('Build System (machine and forge)', () => {
  it('vcs_cli_tools passes when the probe finds gh logged in, and fails naming what it found otherwise', async () => {
    const dir = makeRepo(NODE_APP);
    const logged = await evaluate(dir, { probe: { ...BARE_MACHINE, vcsCli: async () => [{ tool: 'gh', installed: true, authenticated: true }] } });
    expect(logged.report.report.vcs_cli_tools).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/gh is installed and authenticated/) });
    const bare = await evaluate(dir, {
      probe: {
        ...BARE_MACHINE,
        vcsCli: async () => [
          { tool: 'gh', installed: true, authenticated: false },
          { tool: 'glab', installed: false, authenticated: false },
        ],
      },
    });
    expect(bare.report.report.vcs_cli_tools).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/gh: installed, not authenticated; glab: not on PATH/),
    });
  });

  it('agentic_development passes on an AI co-author trailer in recent commits', async () => {
    const dir = makeRepo(NODE_APP);
    commit(dir, { 'a.txt': 'x' }, { message: 'Fix\n\nCo-authored-by: Claude <noreply@anthropic.com>' });
    const r = (await evaluate(dir)).report.report.agentic_development!;
    expect(r).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/Co-authored-by: Claude/) });
  });

  it('forge criteria without a token are judged from the checkout, naming GITHUB_TOKEN as what was not read', async () => {
    const r = (await evaluate(makeRepo(NODE_APP))).report.report;
    for (const id of ['automated_pr_review', 'fast_ci_feedback', 'deployment_frequency']) {
      expect(r[id]).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/no GitHub token \(GITHUB_TOKEN or --github-token\)/) });
    }
  });

  describe('with a token, through the GitHub API', () => {
    let healthy: ForgeDouble;
    let neglected: ForgeDouble;
    beforeAll(async () => {
      healthy = await ForgeDouble.start(healthyForge());
      neglected = await ForgeDouble.start(neglectedForge());
    });
    afterAll(async () => {
      await healthy.close();
      await neglected.close();
    });
    const withForge = (f: ForgeDouble) => evaluate(makeRepo(NODE_APP, { origin: f.repoUrl }), { githubToken: 't', githubApiUrl: f.apiUrl });

    it('passes automated_pr_review, fast_ci_feedback and deployment_frequency on a healthy forge', async () => {
      const r = (await withForge(healthy)).report.report;
      expect(r.automated_pr_review).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/coderabbitai\[bot\]/) });
      expect(r.fast_ci_feedback).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/average CI duration 5\.0 min over 1 merged/) });
      expect(r.deployment_frequency).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/9 releases of acme\/app in the last 4 weeks/) });
    });

    it('fails them on a neglected forge, with the numbers', async () => {
      const r = (await withForge(neglected)).report.report;
      expect(r.automated_pr_review).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/no bot reviews/) });
      expect(r.fast_ci_feedback).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/average CI duration 40\.0 min/) });
      expect(r.deployment_frequency).toMatchObject({
        numerator: 0,
        rationale: expect.stringMatching(/0 releases of acme\/app in the last 4 weeks \(fewer than 2 a week\)/),
      });
    });
  });
});
