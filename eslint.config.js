import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const AREAS = ['events', 'analytics', 'telemetry', 'computers', 'automations', 'readiness', 'limits', 'hooks', 'otlp', 'cli', 'guard'];
const SERVER = [
  '**/core/db/**',
  '**/core/http/**',
  '**/core/identity/**',
  '**/app.js',
  '**/config.js',
  '**/service.js',
  '**/*-service.js',
  '**/store.js',
  '**/*-store.js',
  '**/routes.js',
];

/** Everywhere in src: an area may call another area's service, never its store. */
const CROSS_STORE = {
  group: ['../*/store.js', '../../*/store.js', '../*/*-store.js', '../../*/*-store.js', '../core/*/store.js', '../../core/*/store.js'],
  message: "an area may call another area's service, never its store",
  allowTypeImports: true,
};

/**
 * One no-restricted-imports block per set of files, from the general to the specific, each with
 * its [group, message] restrictions. A later block for the same file replaces an earlier one's
 * setting, so each carries the rules for everywhere too.
 */
function importRules(rules) {
  return rules.map(([files, ...restrictions]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [CROSS_STORE, ...restrictions.map(([group, message]) => ({ group, message, allowTypeImports: true }))] },
      ],
    },
  }));
}

/**
 * The areas whose code an area may not import, so that the areas form no cycle: the event
 * vocabulary is below every area, analytics below the ingestion that feeds it (telemetry, OTLP),
 * and telemetry below OTLP.
 */
const BELOW = { events: AREAS.filter((a) => a !== 'events'), analytics: ['telemetry', 'otlp'], telemetry: ['otlp'] };
const layer = (area) => [BELOW[area].map((a) => `**/${a}/**`), `${area} is below ${BELOW[area].join(', ')}: it imports none of them (docs/architecture.md)`];
const ROUTES = [['./store.js', '**/store.js'], 'a route calls its service, never a store'];

export default tseslint.config(
  { ignores: ['dist/**', '.bench-build/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/hooks/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through loadConfig (src/config.ts).' }],
    },
  },
  // The web app runs in the browser: its globals, and no server module but the generated client
  // and the day arithmetic (src/core/days.ts, pure), which must agree with the server's to the day.
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', Response: 'readonly' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '!**/src/client', '!**/src/core', '**/src/*/**', '!**/src/client/**', '!**/src/core/days.js'],
              message: 'The web app reaches the server only through the API client (src/client); it shares only the day arithmetic (src/core/days.ts).',
            },
          ],
        },
      ],
    },
  },
  // One way to start a process (docs/architecture.md): src/core/process.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/process/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?child_process$/]',
          message: 'Start processes with runProcess (src/core/process/run-process.ts).',
        },
        { selector: 'ImportExpression[source.value=/^(node:)?child_process$/]', message: 'Start processes with runProcess (src/core/process/run-process.ts).' },
      ],
    },
  },
  // Small files (AGENTS.md): a source file over 400 lines is split by what it does.
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: [
      'src/client/openapi-types.ts', // generated from openapi.json (npm run openapi)
    ],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  // Time comes from the clock (src/core/clock.ts), so tests move it instead of sleeping. The clock
  // module holds the only raw timers of src/; a timer that must follow the real time (a socket's,
  // a process's, the event-loop sampler's) uses its systemClock by name (docs/architecture.md, Time).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/clock.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through loadConfig (src/config.ts).' },
        { object: 'AbortSignal', property: 'timeout', message: 'Time out through the clock (clock.abortAfter, src/core/clock.ts).' },
      ],
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval'].map((name) => ({ name, message: 'Wait through the clock (src/core/clock.ts), not a raw timer.' })),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['timers', 'timers/promises', 'node:timers', 'node:timers/promises'].map((name) => ({
            name,
            message: 'Wait through the clock (src/core/clock.ts), not a raw timer.',
          })),
        },
      ],
    },
  },
  // After the timers' block, which restricts properties in src/ too: these files read the environment (and time out nothing).
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'bench/**', 'scripts/**', 'vitest.config.ts'], rules: { 'no-restricted-properties': 'off' } },
  // Names as the code writes them: camelCase values and functions, PascalCase types and classes
  // (and React components), UPPER_CASE constants; a leading _ marks an unused parameter. Object keys are left free (HTTP
  // headers, SQL columns, OpenAPI and OTLP field names are not ours to choose).
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['src/client/openapi-types.ts'],
    rules: {
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'default', format: ['camelCase'], leadingUnderscore: 'allow' },
        { selector: 'variable', format: ['camelCase', 'UPPER_CASE', 'PascalCase'], leadingUnderscore: 'allow' },
        { selector: 'function', format: ['camelCase', 'PascalCase'] },
        { selector: 'parameter', format: ['camelCase', 'PascalCase'], leadingUnderscore: 'allow' },
        // A name taken apart from a row or a payload keeps the field's own name.
        { selector: ['variable', 'parameter'], modifiers: ['destructured'], format: null },
        { selector: 'typeLike', format: ['PascalCase'] },
        { selector: 'enumMember', format: ['PascalCase', 'UPPER_CASE'] },
        { selector: ['objectLiteralProperty', 'typeProperty', 'objectLiteralMethod', 'typeMethod'], format: null },
        { selector: 'import', format: null },
      ],
    },
  },
  // Tech debt goes to the issue tracker, where it is seen and planned, not into TODO comments.
  { rules: { 'no-warning-comments': ['error', { terms: ['todo', 'fixme', 'xxx'], location: 'start' }] } },
  // The direction of imports (docs/architecture.md): type-only imports are free, code is not.
  ...importRules([
    ['src/**'],
    ['src/core/**', [AREAS.map((a) => `**/${a}/**`), 'core is below every area: it imports none of them']],
    ...Object.keys(BELOW).map((area) => [`src/${area}/**`, layer(area)]),
    ['src/*/routes.ts', ROUTES],
    ...Object.keys(BELOW).map((area) => [`src/${area}/routes.ts`, layer(area), ROUTES]),
    ['src/core/identity/routes.ts', ROUTES],
    ['src/hooks/**', [SERVER, 'the hooks runner is client code: it talks to the service over HTTP only']],
    ['src/guard/**', [SERVER, 'orgctl guard is client code: it talks to the service over HTTP only']],
    ['src/computers/agent/**', [SERVER, 'the host agent is client code: it talks to the service over HTTP only']],
    ['src/client/**', [SERVER, 'the API client is shared with the CLI and the host agent: no server code']],
  ]),
);
