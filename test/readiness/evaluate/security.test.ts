import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criterionCases, deps, evaluate, makeRepo, NODE_APP, workflow } from './fixtures.js';
import { ForgeDouble, healthyForge, neglectedForge } from './forge-double.js';

const DEPENDABOT = 'version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: weekly }\n';

const goodIgnore = { '.gitignore': '.env\nnode_modules/\ndist/\n.idea/\n.DS_Store\n' };
/**
 * A key id in the AWS format, put together at run time: written out whole, it would make this
 * repository's own evaluation find a tracked secret in this file.
 */
const AWS_KEY_ID = ['AKIA', 'ABCDEFGHIJKLMNOP'].join('');

criterionCases('Security (offline)', [
  {
    id: 'codeowners',
    pass: { ...NODE_APP, '.github/CODEOWNERS': '* @acme/core\n' },
    passNames: /\.github\/CODEOWNERS assigns owners(:\d+)? \(1 rules, e\.g\. "\* @acme\/core"\)/,
    fail: { ...NODE_APP, CODEOWNERS: '# nobody\n' },
    failNames: /CODEOWNERS has no rule with a valid owner/,
  },
  {
    id: 'dependency_update_automation',
    pass: { ...NODE_APP, '.github/dependabot.yml': DEPENDABOT },
    passNames: /\.github\/dependabot\.yml configures dependency updates; update pull requests not checked: no GitHub token/,
    fail: NODE_APP,
    failNames: /no Dependabot or Renovate configuration/,
  },
  {
    id: 'gitignore_comprehensive',
    pass: { ...NODE_APP, ...goodIgnore },
    passNames: /covers \.env, dependencies, build output, IDE and OS files/,
    fail: { ...NODE_APP, '.gitignore': 'node_modules/\n' },
    failNames: /does not cover \.env, build output, IDE files, OS files/,
  },
  {
    id: 'dast_scanning',
    pass: { ...deps('express'), ...workflow('docker run zaproxy/zap-stable zap-baseline.py -t http://localhost:3000') },
    passNames: /ci\.yml(:\d+)? \(DAST in CI: "zaproxy/,
    fail: deps('express'),
    failNames: /DAST in CI/,
    skip: NODE_APP,
    skipNames: /no web framework in the application/,
  },
  {
    id: 'pii_handling',
    pass: { ...deps('pg'), 'docs/guide.md': 'Personal data is masked before export.\n' },
    passNames: /docs\/guide\.md(:\d+)? \(documented PII handling: "Personal data"/,
    fail: deps('pg'),
    failNames: /PII tooling/,
    skip: NODE_APP,
    skipNames: /no database in the application/,
  },
  {
    id: 'privacy_compliance',
    pass: { ...deps('pg'), 'docs/data.md': 'We follow GDPR: data retention is 30 days.\n' },
    passNames: /docs\/data\.md(:\d+)? \(documented privacy handling: "GDPR"/,
    fail: deps('pg'),
    failNames: /privacy document/,
    skip: NODE_APP,
    skipNames: /no database anywhere/,
  },
  {
    id: 'secrets_management',
    pass: { ...NODE_APP, ...goodIgnore, '.env.example': 'TOKEN=\n' },
    passNames: /\.env\.example(:\d+)? \(environment template/,
    fail: { ...NODE_APP, 'config/aws.ini': `key = ${AWS_KEY_ID}\n` },
    failNames: /hardcoded or tracked secrets: config\/aws\.ini(:\d+)? \(key in text\)/,
  },
  {
    id: 'log_scrubbing',
    pass: { ...deps('pino'), 'src/log.ts': "pino({ redact: ['req.headers.authorization'] });" },
    passNames: /src\/log\.ts(:\d+)? \(log redaction: "redact:?"/,
    fail: deps('pino'),
    failNames: /log redaction/,
  },
  {
    id: 'min_release_age',
    pass: { ...NODE_APP, 'renovate.json': '{"minimumReleaseAge": "3 days"}' },
    passNames: /renovate\.json(:\d+)? \(update delay: "minimumReleaseAge"/,
    fail: { ...NODE_APP, 'renovate.json': '{}' },
    failNames: /update delay/,
  },
]);

describe('Security (forge)', () => {
  let healthy: ForgeDouble;
  let neglected: ForgeDouble;
  beforeAll(async () => {
    healthy = await ForgeDouble.start(healthyForge());
    neglected = await ForgeDouble.start({ ...neglectedForge(), '/repos/acme/app/branches/main/protection': [404, { message: 'Branch not protected' }] });
  });
  afterAll(async () => {
    await healthy.close();
    await neglected.close();
  });
  const on = async (f: ForgeDouble | undefined, files = NODE_APP) =>
    (await evaluate(makeRepo(files, { origin: f?.repoUrl }), f ? { githubToken: 't', githubApiUrl: f.apiUrl } : {})).report.report;

  it('branch_protection: passes on a pull_request rule, fails without protection, skipped without a token', async () => {
    expect((await on(healthy)).branch_protection).toMatchObject({ numerator: 1, rationale: 'acme/app: ruleset rule pull_request on main' });
    expect((await on(neglected)).branch_protection).toMatchObject({
      numerator: 0,
      rationale: 'acme/app: no ruleset requiring pull requests and no branch protection on main',
    });
    expect((await on(undefined)).branch_protection).toMatchObject({
      numerator: null,
      rationale: expect.stringMatching(/^skipped: rules not readable \(no GitHub token.*only 1 commits of history/),
    });
  });

  it('secret_scanning: a scanner in CI passes offline; otherwise the native setting decides; skipped without a token', async () => {
    expect((await on(undefined, { ...NODE_APP, ...workflow('gitleaks detect') })).secret_scanning).toMatchObject({
      numerator: 1,
      rationale: expect.stringMatching(/ci\.yml:\d+ \(secret scanner in CI: "gitleaks"/),
    });
    expect((await on(healthy)).secret_scanning).toMatchObject({ numerator: 1, rationale: 'native secret scanning is enabled on acme/app' });
    expect((await on(neglected)).secret_scanning).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/native secret scanning is disabled on acme\/app/),
    });
    expect((await on(undefined)).secret_scanning).toMatchObject({ numerator: 0, rationale: expect.stringMatching(/native setting not read: no GitHub token/) });
  });

  it('automated_security_review: CodeQL in CI passes; code scanning analyses decide otherwise; skipped without a token', async () => {
    const codeql = { ...NODE_APP, '.github/workflows/codeql.yml': 'jobs:\n  a:\n    steps:\n      - uses: github/codeql-action/analyze@v3\n' };
    expect((await on(undefined, codeql)).automated_security_review).toMatchObject({ numerator: 1, rationale: expect.stringMatching(/codeql\.yml/) });
    expect((await on(healthy)).automated_security_review).toMatchObject({ numerator: 1 });
    expect((await on(neglected)).automated_security_review).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/no code scanning analyses on acme\/app/),
    });
    expect((await on(undefined)).automated_security_review).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/code scanning results not read: no GitHub token/),
    });
  });

  it('dependency_update_automation: with a token, a configuration without update pull requests fails', async () => {
    const cfg = { ...NODE_APP, '.github/dependabot.yml': DEPENDABOT };
    expect((await on(healthy, cfg)).dependency_update_automation).toMatchObject({
      numerator: 1,
      rationale: '.github/dependabot.yml, and 1 update pull requests on acme/app',
    });
    expect((await on(neglected, cfg)).dependency_update_automation).toMatchObject({
      numerator: 0,
      rationale: expect.stringMatching(/no Dependabot\/Renovate pull request/),
    });
  });
});
