import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const AREAS = ['events', 'analytics', 'telemetry', 'computers', 'automations', 'readiness', 'limits', 'hooks', 'otlp', 'cli'];
const SERVER = ['**/core/db/**', '**/core/http/**', '**/core/identity/**', '**/app.js', '**/config.js', '**/service.js', '**/*-service.js', '**/store.js', '**/*-store.js', '**/routes.js'];

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
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [CROSS_STORE, ...restrictions.map(([group, message]) => ({ group, message, allowTypeImports: true }))] }] },
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
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly' } },
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
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/*', '!**/src/client', '!**/src/core', '**/src/*/**', '!**/src/client/**', '!**/src/core/days.js'], message: 'The web app reaches the server only through the API client (src/client); it shares only the day arithmetic (src/core/days.ts).' }] }] },
  },
  // One way to start a process (docs/architecture.md): src/core/process.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/process/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value=/^(node:)?child_process$/]", message: 'Start processes with runProcess (src/core/process/run-process.ts).' },
        { selector: "ImportExpression[source.value=/^(node:)?child_process$/]", message: 'Start processes with runProcess (src/core/process/run-process.ts).' },
      ],
    },
  },
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'bench/**', 'scripts/**', 'vitest.config.ts'], rules: { 'no-restricted-properties': 'off' } },
  // The direction of imports (docs/architecture.md): type-only imports are free, code is not.
  ...importRules([
    ['src/**'],
    ['src/core/**', [AREAS.map((a) => `**/${a}/**`), 'core is below every area: it imports none of them']],
    ...Object.keys(BELOW).map((area) => [`src/${area}/**`, layer(area)]),
    ['src/*/routes.ts', ROUTES],
    ...Object.keys(BELOW).map((area) => [`src/${area}/routes.ts`, layer(area), ROUTES]),
    ['src/core/identity/routes.ts', ROUTES],
    ['src/hooks/**', [SERVER, 'the hooks runner is client code: it talks to the service over HTTP only']],
    ['src/computers/agent/**', [SERVER, 'the host agent is client code: it talks to the service over HTTP only']],
    ['src/client/**', [SERVER, 'the API client is shared with the CLI and the host agent: no server code']],
  ]),
);
