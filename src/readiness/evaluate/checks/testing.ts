import type { App } from '../apps.js';
import { anyOf } from '../patterns.js';
import { parseJson } from '../parse.js';
import { appFiles, appWhere, ci, dep, DOC_FILE, evidenceOutcome, firstEvidence, type Rule } from '../evidence.js';
import { appCheck, appEvidence } from '../define.js';
import { SETUP_COMMAND } from './build.js';
import { fail, pass, skip, type Check, type CheckContext, type Outcome } from '../types.js';

export const UNIT_TEST = anyOf([
  /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]+\.py$/,
  /(^|\/)[^/]+_test\.(py|go|rb|c|cc|cpp)$/,
  /(^|\/)tests?\/.+\.rs$/,
  /(^|\/)src\/test\/.+\.(java|kt)$/,
  /(^|\/)[^/]+Tests?\.(java|kt)$/,
  /(^|\/)[^/]+_spec\.rb$/,
  /(^|\/)[^/]*Tests\/.+\.swift$/,
  /(^|\/)[^/]+Tests?\.swift$/,
]);
/** Integration and end-to-end tests by their path, in each ecosystem's convention. */
const INTEGRATION = anyOf([
  /(^|\/)(e2e|integration[^/]*|acceptance|cypress|playwright|integrationTest|integration-test)\/.+\.[a-z]+$/,
  /(^|\/)src\/it\/.+\.[a-z]+$/,
  /(^|\/)[^/]+\.(e2e|integration)\.[a-z]+$/,
  /(^|\/)[^/]+_integration_test\.(go|py)$/,
  /(^|\/)test_([^/]+_)?integration(_[^/]+)?\.py$/,
  /(^|\/)[^/]+(IT|IntegrationTests?|E2ETests?)\.(java|kt)$/,
  /(^|\/)[^/]*(UITests?|IntegrationTests?|E2ETests?)\/.+\.swift$/,
  /(^|\/)(playwright|cypress)\.config\.[cm]?[jt]s$/,
]);
/** Integration tests declared rather than placed: pytest markers, Maven Failsafe, XCUITest. */
const INTEGRATION_DECLARED: Rule[] = [
  {
    file: /(^|\/)(pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini)$/,
    content: /\bmarkers\s*=[\s\S]{0,400}?\b(integration|e2e)\b/,
    what: 'pytest integration marker',
  },
  { file: /(^|\/)(test_[^/]+|[^/]+_test|conftest)\.py$/, content: /@pytest\.mark\.(integration|e2e)\b/, what: 'pytest integration marker' },
  { file: /(^|\/)(pom\.xml|build\.gradle(\.kts)?)$/, content: /maven-failsafe-plugin|integrationTest\b/, what: 'Failsafe/integrationTest task' },
  { file: /\.swift$/, content: /\bXCUIApplication\(\)/, what: 'XCUITest UI test' },
];
const TEST_CONFIG = anyOf(
  [
    /package\.json/,
    /vitest\.config\.[cm]?[jt]s/,
    /vite\.config\.[cm]?[jt]s/,
    /jest\.config\.[cm]?[jt]s(on)?/,
    /pytest\.ini/,
    /pyproject\.toml/,
    /setup\.cfg/,
    /tox\.ini/,
    /\.mocharc[^/]*/,
    /playwright\.config\.[cm]?[jt]s/,
    /pom\.xml/,
    /build\.gradle(\.kts)?/,
    /\.rspec/,
    /spec_helper\.rb/,
    /Cargo\.toml/,
    /Makefile/,
    /junit-platform\.properties/,
    /[^/]+\.xctestplan/,
    /[^/]+\.xcscheme/,
    /Package\.swift/,
  ],
  { before: /(^|\/)/, after: /$/ },
);

const testsOf = (app: App) => app.files.filter((f) => UNIT_TEST.test(f));

/** The documented test command of an application and what it would collect, read from its manifests. */
export async function testRunner(ctx: Pick<CheckContext, 'scan'>, app: App): Promise<string | undefined> {
  const at = (f: string) => (app.path === '.' ? f : `${app.path}/${f}`);
  const pkg = parseJson(await ctx.scan.read(at('package.json'))) as { scripts?: Record<string, string> } | undefined;
  const test = pkg?.scripts?.test;
  if (test && !/no test specified/.test(test)) return `npm test (${at('package.json')} scripts.test: "${test.slice(0, 60)}")`;
  if (app.languages.includes('go')) return 'go test ./...';
  if (app.languages.includes('rust') && ctx.scan.has(at('Cargo.toml'))) return 'cargo test';
  if (app.languages.includes('python')) {
    const cfg = await firstEvidence(ctx, appFiles(ctx, app), [
      { file: /(^|\/)(pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini|conftest\.py)$/, content: /pytest|^/m, what: 'pytest configuration' },
    ]);
    return `pytest${cfg ? ` (${cfg})` : ''}`;
  }
  if (ctx.scan.has(at('pom.xml'))) return 'mvn test';
  if (ctx.scan.has(at('build.gradle')) || ctx.scan.has(at('build.gradle.kts'))) return 'gradle test';
  if (app.languages.includes('ruby') && app.files.some((f) => f.endsWith('_spec.rb'))) return 'rspec';
  if (ctx.scan.has(at('Package.swift'))) return 'swift test';
  if (app.languages.includes('swift') && app.files.some((f) => /\.xcodeproj\//.test(f))) return 'xcodebuild test';
  if (app.files.some((f) => /(^|\/)CMakeLists\.txt$/.test(f))) return 'ctest';
  return undefined;
}

const startCommand = (text: string) => SETUP_COMMAND.exec(text)?.[0];
const INTERACTION = /\bcurl\b|https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?|\bopen (http|the browser)|--help\b|\blog ?in\b|\bsign ?in\b|API key/i;

/** The first document naming both a way to start the application and one interaction with it. */
async function qaPath(ctx: CheckContext, app: App): Promise<{ file: string; start: string } | undefined> {
  const docs = appFiles(ctx, app).filter((f) => DOC_FILE.test(f) || (app.path !== '.' && f === `${app.path}/README.md`));
  for (const f of docs) {
    const text = (await ctx.scan.read(f)) ?? '';
    const start = startCommand(text);
    if (start && INTERACTION.test(text)) return { file: f, start };
  }
  return undefined;
}

/** Whether the script, target or file a documented start command names exists. */
async function startTargetExists(ctx: CheckContext, app: App, start: string): Promise<string | undefined> {
  const at = (f: string) => (app.path === '.' ? f : `${app.path}/${f}`);
  const script = /^(?:npm|pnpm|yarn|bun) (?:run )?(\S+)/.exec(start)?.[1];
  if (script) {
    const pkgs = [at('package.json'), 'package.json'];
    for (const p of pkgs) {
      const pkg = parseJson(await ctx.scan.read(p)) as { scripts?: Record<string, string> } | undefined;
      if (pkg?.scripts?.[script] !== undefined) return `${p} scripts.${script}`;
    }
    return undefined;
  }
  const target = /^make (\S+)/.exec(start)?.[1];
  if (target) return new RegExp(`^${target}:`, 'm').test((await ctx.scan.read('Makefile')) ?? '') ? `Makefile target ${target}` : undefined;
  if (/^docker[- ]compose/.test(start)) return ctx.scan.files.find((f) => /^(docker-)?compose[^/]*\.ya?ml$/.test(f));
  return 'a command of the toolchain';
}

export const testingChecks: Check[] = [
  appCheck('unit_tests_exist', async (_ctx, app) => {
    const tests = testsOf(app);
    if (tests.length) return pass(`${tests.length} test files, e.g. ${tests.slice(0, 3).join(', ')}`);
    return fail(`no unit test files in ${app.path}; looked for *.test.ts, *.spec.js, test_*.py, *_test.go, tests/*.rs, src/test/**/*.java, *_spec.rb`);
  }),
  appCheck('integration_tests_exist', async (ctx, app) => {
    const found = app.files.filter((f) => INTEGRATION.test(f));
    if (found.length) return pass(`integration/e2e tests: ${found.slice(0, 3).join(', ')}`);
    const declared = await firstEvidence(ctx, app.files, INTEGRATION_DECLARED);
    if (declared) return pass(`found ${declared}`);
    return fail(
      `no integration or e2e tests in ${app.path}; looked for e2e/, integration*/, test_*_integration.py, *IT.java, *UITests/, pytest integration markers, Failsafe, Playwright or Cypress config`,
    );
  }),
  appCheck('unit_tests_runnable', async (ctx, app): Promise<Outcome> => {
    const tests = testsOf(app);
    const runner = await testRunner(ctx, app);
    const why = 'not run: the evaluator never executes repository code, so it checked what the documented command would collect';
    if (!runner) return fail(`no test command found for ${app.path} (package.json scripts.test, go, cargo, pytest, maven, gradle, rspec, ctest); ${why}`);
    if (!tests.length) return fail(`${runner} would collect no test files in ${app.path}; ${why}`);
    return pass(`${runner} would collect ${tests.length} test files; ${why}`);
  }),
  appEvidence('test_performance_tracking', [
    ci('test timing/reports in CI', /--durations|junit|gotestsum|test[-_ ]results|test analytics|buildpulse|datadog-ci junit|--reporter[= ]\S*(junit|json)/i),
    {
      file: TEST_CONFIG,
      content: /--durations|slowTestThreshold|reportSlowTests|junit|outputFile|--reporter[= ](junit|json)/i,
      what: 'test timing/report config',
    },
  ]),
  appCheck('flaky_test_detection', async (ctx, app) => {
    if (!testsOf(app).length) return skip(`no tests in ${app.path}: flaky-test tracking does not apply`);
    return evidenceOutcome(
      ctx,
      appFiles(ctx, app),
      [
        dep('retry/flake tool', 'pytest-rerunfailures', 'flaky', 'pytest-flakefinder', 'rspec-retry', 'jest-circus-retry', 'buildpulse'),
        {
          file: TEST_CONFIG,
          content: /\bretry\s*:\s*[1-9]|retryTimes|\bretries\s*:\s*[1-9]|--reruns|rerunFailingTestsCount|--rerun-fails|quarantine/,
          what: 'test retry/quarantine config',
        },
        ci('flaky-test tracking in CI', /buildpulse|--reruns|--rerun-fails|flaky|quarantine|trunk-io\/analytics/i),
      ],
      appWhere(app),
    );
  }),
  appEvidence('test_coverage_thresholds', [
    {
      file: TEST_CONFIG,
      content: /coverageThreshold|thresholds\s*:\s*\{|--cov-fail-under|fail_under|check-coverage|--fail-under|minimum_coverage|COVEREDRATIO|<minimum>/,
      what: 'coverage threshold',
    },
    {
      file: /(^|\/)(\.coveragerc|\.nycrc[^/]*|\.c8rc[^/]*|\.testcoverage\.ya?ml)$/,
      content: /fail_under|check-coverage|threshold|lines\s*[:=]\s*\d/,
      what: 'coverage threshold config',
    },
    { file: /(^|\/)\.?codecov\.ya?ml$/, content: /target:\s*\d/, what: 'Codecov status target' },
    ci('coverage threshold in CI', /--cov-fail-under|--check-coverage|fail_under|--fail-under|coverage.*threshold/i),
  ]),
  appCheck('test_naming_conventions', async (ctx, app) => {
    if (app.languages.includes('go') && app.files.some((f) => f.endsWith('_test.go')))
      return pass('Go enforces *_test.go naming: go test only compiles those files');
    return evidenceOutcome(
      ctx,
      appFiles(ctx, app),
      [
        {
          file: TEST_CONFIG,
          content: /testMatch|testRegex|include\s*:\s*\[[^\]]*test|python_files|testpaths|<includes>|spec_pattern|--pattern/,
          what: 'test file pattern config',
        },
        {
          file: /^(AGENTS\.md|CONTRIBUTING[^/]*)$/,
          content: /\*\.test\.|\*_test\.|test_\*\.py|tests? (files? )?(are |must be )?named/i,
          what: 'documented test naming',
        },
      ],
      appWhere(app),
    );
  }),
  appCheck('test_isolation', async (ctx, app) => {
    if (app.languages.includes('rust') && testsOf(app).length) return pass('cargo test runs tests in parallel threads by default');
    return evidenceOutcome(
      ctx,
      appFiles(ctx, app),
      [
        dep(
          'isolation/parallel tool',
          'pytest-xdist',
          'pytest-randomly',
          'testcontainers',
          '@testcontainers/postgresql',
          'database_cleaner',
          'org.testcontainers',
          'pytest-parallel',
          'pytest-django',
        ),
        {
          file: TEST_CONFIG,
          content: anyOf(
            [
              /\bpool\s*:/,
              /isolate\s*:/,
              /maxWorkers/,
              /fileParallelism/,
              /(^|[\s"'])-n\s*(auto|logical|\d+)\b/,
              /--numprocesses/,
              /--dist[= ]/,
              /--shuffle/,
              /parallel\.enabled\s*=\s*true/,
              /--order rand/,
              /config\.order\s*=\s*:random/,
              /--parallel/,
              /forkCount/,
              /maxParallelForks/,
              /<parallel>/,
              /<threadCount>/,
              /"parallelizable"\s*:\s*true/,
              /parallelizable\s*=\s*"YES"/,
            ],
            { flags: 'm' },
          ),
          what: 'parallel/isolated test config',
        },
        { file: /_test\.go$/, content: /t\.Parallel\(\)/, what: 't.Parallel' },
        ci('parallel tests in CI', /(^|\s)-n\s*(auto|\d+)\b|--numprocesses|--shuffle|--parallel|-parallel-testing-enabled|maxParallelForks/m),
        {
          file: /(^|\/)Makefile$|(^|\/)scripts\/[^/]+\.sh$/,
          content: /swift test[^\n]*--parallel|pytest[^\n]*\s-n\s*(auto|\d+)/,
          what: 'parallel test command',
        },
      ],
      appWhere(app),
    );
  }),
  appCheck('interactive_qa_exists', async (ctx, app) => {
    const found = await qaPath(ctx, app);
    if (found) return pass(`${found.file} documents a start command (\`${found.start}\`) and an interaction with the running app`);
    return fail(`no document in ${appWhere(app)} names both a start command and an interaction (curl, a localhost URL, --help, log in)`);
  }),
  appCheck('interactive_qa_runnable', async (ctx, app) => {
    const found = await qaPath(ctx, app);
    const why = 'the app was not brought up (the evaluator never executes repository code); the documented path was verified instead';
    if (!found) return fail(`no documented start-and-interact path in ${appWhere(app)}; ${why}`);
    const target = await startTargetExists(ctx, app, found.start);
    if (!target) return fail(`${found.file} says \`${found.start}\` but what it names does not exist; ${why}`);
    return pass(`${found.file}: \`${found.start}\` resolves to ${target}; ${why}`);
  }),
];
