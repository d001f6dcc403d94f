import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // Processes the tests start (orgctl serve) do not shed by event-loop delay either; see test-app.ts.
    env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
  },
});
