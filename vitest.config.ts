import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Tests in two sizes. `processes`: files that start orgctl (or git, npm, a host agent) as real
 * processes, which take most of the suite's time; each file in a process of its own. `fast`:
 * everything else, in-process over Fastify's inject, its files sharing one worker's imported
 * modules (isolate: false): importing the app anew took most of a fast file's time, and the
 * helpers register their cleanups per file (test/helpers/after-file.ts). A file that starts
 * processes goes in `processes` even if it is quick alone: from the shared worker, grown to
 * hundreds of megabytes, every process costs more to start (the readiness evaluator's files ran
 * 3-6 times longer there; bench/RESULTS.md). `npm test` runs both; `npm run test:fast` the fast
 * part alone.
 */
const PROCESSES = [
  'test/e2e/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/otlp/exporters.test.ts',
  'test/otlp/agent-clients.test.ts',
  'test/computers/byom-*.test.ts',
  'test/analytics/demo-seed.test.ts',
  'test/readiness/upload-command.test.ts',
  'test/readiness/evaluate/*.test.ts',
  'test/readiness/fix/*.test.ts',
  'test/automations/ci-edit-plain-git.test.ts',
  'test/webhooks/events.test.ts',
  'test/core/run-process.test.ts',
  'test/core/build-assets.test.ts',
  'test/client/generated-client.test.ts',
  'test/hooks/cli.test.ts',
  'test/hooks/telemetry-delivery.test.ts',
  'test/hooks/telemetry.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup-db.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // Processes the tests start (orgctl serve) do not shed by event-loop delay either; see test-app.ts.
    // The CLI under test must not find the developer's own login (orgctl login) or ORGCTL_* settings.
    env: {
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'orgctl-test-config-')),
      ORGCTL_URL: '',
      ORGCTL_API_KEY: '',
      ORGCTL_APP_URL: '',
    },
    projects: [
      // Its files also pass their PGlite databases on to the next file (test/helpers/pglite-reuse.ts).
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: PROCESSES, isolate: false, provide: { keepPgliteDatabases: true } } },
      { extends: true, test: { name: 'processes', include: PROCESSES } },
    ],
  },
});
