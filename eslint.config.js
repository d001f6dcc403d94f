import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.bench-build/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through loadConfig (src/config.ts).' }],
    },
  },
  // The web app runs in the browser: its globals, and no server module but the generated client.
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', Response: 'readonly' } },
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/*', '!**/src/client', '**/src/*/**', '!**/src/client/**'], message: 'The web app reaches the server only through the API client (src/client).' }] }] },
  },
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'bench/**', 'scripts/**', 'vitest.config.ts'], rules: { 'no-restricted-properties': 'off' } },
);
