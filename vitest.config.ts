import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test lanes, by what a file needs (docs/testing.md). Each file is in exactly one lane; a
 * lane that does not depend on the database engine runs once, on the embedded PGlite.
 *
 * - `unit`: no database and no process of ours. In-process, the files sharing one worker's
 *   modules (isolate: false): importing the app anew took most of a small file's time.
 * - `db`: the storage and service tests, in-process over a database of the file's own; the
 *   engines differ here, so with DATABASE_URL (a PostgreSQL server) they run again there as
 *   `db-postgres`.
 * - `processes`: files that start git, node, npm, the readiness evaluator, the host agent or an
 *   agent client, each file in a worker of its own: from a shared worker grown to hundreds of
 *   megabytes every process costs more to start (bench/RESULTS.md).
 * - `cli`, `web` (Chromium), `e2e`: `orgctl` as a process, the way the README runs it; with
 *   DATABASE_URL the smoke set runs again on PostgreSQL as `e2e-postgres`.
 * - `faults`: real-time fault tests (a full disk, a lost database, slow clients, SIGKILL), last
 *   and one at a time, when nothing else loads the machine.
 */
const LANES = {
  processes: [
    'test/analytics/demo-seed.test.ts',
    'test/automations/ci-edit-plain-git.test.ts',
    'test/client/generated-client.test.ts',
    'test/computers/byom-*.test.ts',
    'test/core/build-assets.test.ts',
    'test/core/run-process.test.ts',
    'test/hooks/cli.test.ts',
    'test/hooks/telemetry-delivery.test.ts',
    'test/hooks/telemetry.test.ts',
    'test/otlp/agent-clients.test.ts',
    'test/otlp/exporters.test.ts',
    'test/readiness/evaluate/*.test.ts',
    'test/readiness/fix/*.test.ts',
    'test/readiness/upload-command.test.ts',
    'test/webhooks/events.test.ts',
  ],
  cli: ['test/cli/**/*.test.ts'],
  web: ['test/web/**/*.test.ts'],
  e2e: ['test/e2e/**/*.test.ts'],
  faults: ['test/faults/**/*.test.ts'],
};
/** No database: every in-process file that makes none (`TestApp.start`, `createTestDb`; test-db.ts refuses one here). */
const UNIT = [
  'test/analytics/active-windows.test.ts',
  'test/automations/{address-pin,config,repo-target,workflow-request}.test.ts',
  'test/client/csv-rows.test.ts',
  'test/computers/{install-plan,log-lines,run-process,step-machine}.test.ts',
  'test/core/{api-key-format,clock,config,days,dependencies,docs,retry}.test.ts',
  'test/core/http/heartbeat.test.ts',
  'test/events/date-parse.test.ts',
  'test/hooks/{config-validation,generated-validators,outcomes,process-control}.test.ts',
  'test/otlp/{ids,wire}.test.ts',
  'test/readiness/{criteria-docs,repo-id}.test.ts',
  'test/security/{dns-rebinding,network-guard}.test.ts',
  'test/webhooks/catalogue-doc.test.ts',
  'test/web/definitions.test.ts',
];
/**
 * With DATABASE_URL, the process lanes' files that run again on PostgreSQL: one path of each area
 * through `orgctl` (start and restart; ingest and read, and enforce, with the real agent clients;
 * provisioning across two servers), and the faults of a server database (a lost or silent
 * server, a dropped connection) or of its SQL (sums past 64 bits, leases after a SIGKILL).
 */
const ON_POSTGRES = {
  e2e: [
    'test/e2e/serve-process.test.ts',
    'test/otlp/agent-clients.test.ts',
    'test/e2e/agent-client-enforcement.test.ts',
    'test/computers/byom-restart.test.ts',
  ],
  faults: [
    'test/faults/{database-outage,lost-connection,connection-drop}.test.ts',
    'test/faults/oversized-sums.test.ts',
    'test/faults/webhooks-sigkill.test.ts',
  ],
};

const ALL = 'test/**/*.test.ts';
const postgres = process.env.DATABASE_URL || undefined;

/** A lane on an engine: its worker's DATABASE_URL is the server's (the helpers make a database there) or '' (PGlite). */
function lane(
  name: string,
  include: string[],
  o: { on?: 'postgres'; exclude?: string[]; shared?: boolean; order?: number; setup?: string } = {},
): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      include,
      exclude: o.exclude ?? [],
      isolate: !o.shared,
      env: { DATABASE_URL: o.on === 'postgres' ? postgres! : '' },
      // Where files share a worker, a PGlite database a file gives back is kept for the next (test/helpers/pglite-reuse.ts).
      provide: { keepPgliteDatabases: Boolean(o.shared) && o.on !== 'postgres', lane: name },
      sequence: { groupOrder: o.order ?? 0 },
      ...(o.setup ? { globalSetup: [o.setup] } : {}),
      ...(o.order ? { maxWorkers: 1 } : {}),
    },
  };
}

const inProcess = [...UNIT, ...Object.values(LANES).flat()];

/** The in-process lanes: many short files, run after the process lanes' files to fill the gaps. */
const FILLERS = ['unit', 'db', 'db-postgres'];

/**
 * Vitest queues the lanes one after another, by name. The process lanes wait on what they start
 * (the web lane on Chromium and the server, about one core's worth at two files at a time) where
 * the others are busy, so their files are taken in turn, one of each lane (each lane's slowest
 * first), and the in-process lanes' short files come last, where they fill the workers as the
 * long files end. The fault lanes still run after all of it (their `groupOrder`).
 */
class LanesInTurn extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byLane = new Map<string, TestSpecification[]>();
    for (const f of await super.sort(files)) byLane.set(f.project.name, [...(byLane.get(f.project.name) ?? []), f]);
    const turns: TestSpecification[] = [];
    const lanes = [...byLane.entries()].filter(([name]) => !FILLERS.includes(name)).map(([, specs]) => specs);
    for (let i = 0; lanes.some((specs) => i < specs.length); i++) for (const specs of lanes) if (i < specs.length) turns.push(specs[i]!);
    const fillers = FILLERS.flatMap((name) => byLane.get(name) ?? []);
    return [...turns, ...fillers].sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder);
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
    pool: 'forks',
    sequence: { sequencer: LanesInTurn },
    // A file at a time per core. Vitest's default is one fewer (a single worker on two cores),
    // while most process tests wait on what they started (bench/RESULTS.md).
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // `npm test` measures the lines of src/ the in-process tests run (a process they start is not
    // counted) and fails under the threshold: a change that drops tests drops the figure.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,mjs}'],
      exclude: ['src/client/openapi-types.ts', 'src/hooks/generated/**'],
      reporter: ['text-summary'],
      // The figure is printed whether or not a test failed.
      reportOnFailure: true,
      thresholds: { lines: 72 },
    },
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
      lane('unit', UNIT, { shared: true }),
      lane('db', [ALL], { exclude: inProcess, shared: true }),
      ...(postgres ? [lane('db-postgres', [ALL], { exclude: inProcess, shared: true, on: 'postgres' })] : []),
      lane('processes', LANES.processes),
      lane('cli', LANES.cli),
      // One orgctl serve and one Chromium for the lane's files (test/web/global-setup.ts).
      lane('web', LANES.web, { exclude: UNIT, setup: 'test/web/global-setup.ts' }),
      lane('e2e', LANES.e2e),
      ...(postgres ? [lane('e2e-postgres', ON_POSTGRES.e2e, { on: 'postgres' })] : []),
      lane('faults', LANES.faults, { order: 1 }),
      ...(postgres ? [lane('faults-postgres', ON_POSTGRES.faults, { on: 'postgres', order: 1 })] : []),
    ],
  },
});
