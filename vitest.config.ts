import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    // The CLI under test must not find the developer's own login (orgctl login) or ORGCTL_* settings.
    env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'orgctl-test-config-')), ORGCTL_URL: '', ORGCTL_API_KEY: '', ORGCTL_APP_URL: '' },
  },
});
