import { afterAll, beforeAll, expect, it } from 'vitest';
import { criterionCases, deps, evaluate, makeRepo, NODE_APP, workflow } from './fixtures.js';
import { ForgeDouble, healthyForge, neglectedForge } from './forge-double.js';

const service = { ...deps('fastify'), Dockerfile: 'FROM node:20\n' };

criterionCases('Debugging & Observability', [
  {
    id: 'structured_logging',
    pass: deps('pino'),
    passNames: /package\.json(:\d+)? \(logging library: "pino"/,
    fail: NODE_APP,
    failNames: /logging library, Go log\/slog, Python logging library/,
  },
  {
    id: 'distributed_tracing',
    pass: deps('@opentelemetry/api'),
    passNames: /tracing library: "@opentelemetry\/api"/,
    fail: { ...NODE_APP, 'src/a.ts': 'export const a = 1;' },
    failNames: /request id propagation/,
  },
  { id: 'metrics_collection', pass: deps('prom-client'), passNames: /metrics library: "prom-client"/, fail: NODE_APP, failNames: /metrics library/ },
  {
    id: 'error_tracking_contextualized',
    pass: { ...deps('@sentry/node'), 'src/errors.ts': 'Sentry.setUser({ id });' },
    passNames: /error tracking SDK: "@sentry\/node".*with context: src\/errors\.ts(:\d+)? \(error context: "setUser"/,
    fail: deps('@sentry/node'),
    failNames: /but no context(:\d+)? \(source maps, breadcrumbs, user or tags\)/,
  },
  {
    id: 'alerting_configured',
    pass: { ...NODE_APP, 'ops/alerts.rules.yml': 'groups:\n  - name: api\n    rules:\n      - alert: HighErrorRate\n' },
    passNames: /ops\/alerts\.rules\.yml/,
    fail: NODE_APP,
    failNames: /alerting integration, alert rules/,
  },
  {
    id: 'runbooks_documented',
    pass: { ...NODE_APP, 'docs/runbooks/db-failover.md': '# Failover\n' },
    passNames: /docs\/runbooks\/db-failover\.md(:\d+)? \(runbook\)/,
    fail: NODE_APP,
    failNames: /runbook/,
  },
  {
    id: 'deployment_observability',
    pass: { ...NODE_APP, 'docs/deploy.md': 'After a deploy, watch the Grafana board.\n' },
    passNames: /docs\/deploy\.md(:\d+)? \(dashboards or deploy notifications in docs: "Grafana/,
    fail: NODE_APP,
    failNames: /deploy notification in CI/,
  },
  {
    id: 'health_checks',
    pass: { ...service, 'src/server.ts': "app.get('/healthz', () => 'ok');" },
    passNames: /src\/server\.ts(:\d+)? \(health endpoint/,
    fail: service,
    failNames: /Docker HEALTHCHECK/,
    skip: NODE_APP,
    skipNames: /not deployed software/,
  },
  {
    id: 'circuit_breakers',
    pass: deps('axios', 'opossum'),
    passNames: /circuit breaker or retry library: "opossum"/,
    fail: deps('axios'),
    failNames: /circuit breaker or retry library/,
    skip: NODE_APP,
    skipNames: /no external calls found/,
  },
  {
    id: 'profiling_instrumentation',
    pass: { ...service, 'package.json': JSON.stringify({ name: 'app', dependencies: { fastify: '5', '@pyroscope/nodejs': '0.4' } }) },
    passNames: /profiler: "@pyroscope\/nodejs"/,
    fail: service,
    failNames: /profiler, Go pprof/,
    skip: NODE_APP,
    skipNames: /not a deployed service/,
  },
]);

let healthy: ForgeDouble;
let neglected: ForgeDouble;
beforeAll(async () => {
  healthy = await ForgeDouble.start(healthyForge());
  neglected = await ForgeDouble.start(neglectedForge());
});
afterAll(async () => {
  await healthy.close();
  await neglected.close();
});

it('code_quality_metrics reads code scanning analyses through the GitHub API when there is no local evidence', async () => {
  const on = async (f: ForgeDouble) =>
    (await evaluate(makeRepo({ ...NODE_APP, ...workflow('npm test') }, { origin: f.repoUrl }), { githubToken: 't', githubApiUrl: f.apiUrl })).report.report
      .code_quality_metrics;
  expect(await on(healthy)).toMatchObject({ numerator: 1, rationale: '1 recent code scanning analyses on acme/app' });
  expect(await on(neglected)).toMatchObject({ numerator: 0, rationale: 'no quality tracking configuration and no code scanning analyses on acme/app' });
  expect(healthy.asked).toContain('/repos/acme/app/code-scanning/analyses');
});

it('code_quality_metrics passes on a Codecov configuration and fails without evidence, saying the forge was not read', async () => {
  expect((await evaluate(makeRepo({ ...NODE_APP, 'codecov.yml': 'coverage: {}\n' }))).report.report.code_quality_metrics).toMatchObject({
    numerator: 1,
    rationale: 'found codecov.yml (quality tracking config)',
  });
  expect((await evaluate(makeRepo(NODE_APP))).report.report.code_quality_metrics).toMatchObject({
    numerator: 0,
    rationale: expect.stringMatching(
      /^no Codecov\/Sonar\/Code Climate\/Codacy configuration or badge in the repository; code scanning not read: no GitHub token/,
    ),
  });
});
