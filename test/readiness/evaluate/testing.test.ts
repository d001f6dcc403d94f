import { criterionCases, NODE_APP, pkg, workflow } from './fixtures.js';

const tested = { ...pkg({ scripts: { test: 'vitest run', dev: 'node server.js' } }), 'src/a.test.ts': 'test("a", () => {});' };
const untested = pkg({ scripts: { dev: 'node server.js' } });

criterionCases('Testing', [
  {
    id: 'unit_tests_exist',
    pass: tested,
    passNames: /1 test files, e\.g\. src\/a\.test\.ts/,
    fail: { ...untested, 'test/.gitkeep': '' },
    failNames: /no unit test files in \./,
  },
  {
    id: 'integration_tests_exist',
    pass: { ...tested, 'e2e/login.spec.ts': '' },
    passNames: /integration\/e2e tests: e2e\/login\.spec\.ts/,
    fail: tested,
    failNames: /no integration or e2e tests/,
  },
  {
    id: 'unit_tests_runnable',
    pass: tested,
    passNames: /npm test(:\d+)? \(package\.json scripts\.test: "vitest run"\) would collect 1 test files; not run/,
    fail: { ...pkg({ scripts: { test: 'vitest run' } }) },
    failNames: /would collect no test files/,
  },
  {
    id: 'test_performance_tracking',
    pass: { ...tested, ...workflow('npx vitest run --reporter=junit') },
    passNames: /ci\.yml(:\d+)? \(test timing\/reports in CI/,
    fail: tested,
    failNames: /test timing/,
  },
  {
    id: 'flaky_test_detection',
    pass: { ...tested, 'vitest.config.ts': 'export default { test: { retry: 2 } };' },
    passNames: /vitest\.config\.ts(:\d+)? \(test retry\/quarantine config: "retry: 2/,
    fail: tested,
    failNames: /retry\/flake tool/,
    skip: untested,
    skipNames: /no tests in \./,
  },
  {
    id: 'test_coverage_thresholds',
    pass: { ...tested, 'vitest.config.ts': 'export default { test: { coverage: { thresholds: { lines: 80 } } } };' },
    passNames: /vitest\.config\.ts(:\d+)? \(coverage threshold/,
    fail: { ...tested, 'vitest.config.ts': 'export default { test: { coverage: { enabled: true } } };' },
    failNames: /coverage threshold/,
  },
  {
    id: 'test_naming_conventions',
    pass: { ...tested, 'vitest.config.ts': "export default { test: { include: ['test/**/*.test.ts'] } };" },
    passNames: /vitest\.config\.ts(:\d+)? \(test file pattern config/,
    fail: tested,
    failNames: /test file pattern config/,
  },
  {
    id: 'test_isolation',
    pass: { ...tested, 'vitest.config.ts': "export default { test: { pool: 'forks' } };" },
    passNames: /vitest\.config\.ts(:\d+)? \(parallel\/isolated test config: "pool"/,
    fail: tested,
    failNames: /isolation\/parallel tool/,
  },
  {
    id: 'interactive_qa_exists',
    pass: { ...tested, 'README.md': 'Start it with `npm run dev`, then `curl http://localhost:3000/`.\n' },
    passNames: /README\.md documents a start command(:\d+)? \(`npm run dev`\)/,
    fail: { ...tested, 'README.md': 'Start it with `npm run dev`.\n' },
    failNames: /names both a start command and an interaction/,
  },
  {
    id: 'interactive_qa_runnable',
    pass: { ...tested, 'README.md': 'Start it with `npm run dev`, then `curl http://localhost:3000/`.\n' },
    passNames: /`npm run dev` resolves to package\.json scripts\.dev; the app was not brought up/,
    fail: { ...NODE_APP, 'README.md': 'Start it with `npm run dev`, then `curl http://localhost:3000/`.\n' },
    failNames: /says `npm run dev` but what it names does not exist/,
  },
]);
