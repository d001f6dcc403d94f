import { apiFailure } from '../forge.js';
import { appFiles, appWhere, ci, dep, doc, file, firstEvidence, SOURCE_FILE, type Rule } from '../evidence.js';
import { appCheck, appEvidence, appEvidenceWhen, DATABASE, DEPLOYMENT, repoEvidence, WEB_FRAMEWORK } from '../define.js';
import { fail, pass, skip, type Check } from '../types.js';
import { QUALITY_BADGE } from './offline-forge.js';

const source = (what: string, content: RegExp): Rule => ({ file: SOURCE_FILE, content, what });

const SENTRY_LIKE = [
  '@sentry/node',
  '@sentry/browser',
  '@sentry/react',
  '@sentry/nextjs',
  '@sentry/vue',
  '@sentry/angular',
  'sentry-sdk',
  'github.com/getsentry/sentry-go',
  'sentry',
  'sentry-ruby',
  'sentry-rails',
  'io.sentry',
  '@bugsnag/js',
  '@bugsnag/node',
  'bugsnag',
  'rollbar',
  'honeybadger',
  '@honeybadger-io/js',
  'raygun',
  'airbrake',
];

const EXTERNAL: Rule[] = [
  ...DATABASE,
  dep(
    'HTTP client or cloud SDK',
    'axios',
    'node-fetch',
    'got',
    'undici',
    'ky',
    'superagent',
    'requests',
    'httpx',
    'aiohttp',
    'urllib3',
    'reqwest',
    'okhttp',
    'retrofit',
    'faraday',
    'httparty',
    '@aws-sdk/client-s3',
    'boto3',
    '@octokit/rest',
    'stripe',
    'openai',
    'github.com/aws/aws-sdk-go-v2',
  ),
];

export const observabilityChecks: Check[] = [
  appEvidence('structured_logging', [
    dep(
      'logging library',
      'pino',
      'winston',
      'bunyan',
      'log4js',
      'consola',
      'electron-log',
      'structlog',
      'loguru',
      'python-json-logger',
      'go.uber.org/zap',
      'github.com/rs/zerolog',
      'github.com/sirupsen/logrus',
      'tracing',
      'tracing-subscriber',
      'env_logger',
      'log4j-core',
      'logback-classic',
      'slf4j-api',
      'lograge',
      'semantic_logger',
      'spdlog',
      'json-log-formatter',
      'ecs-logging',
      'logstash-logback-encoder',
      'log4j-api',
      'kotlin-logging',
      'swift-log',
      'tslog',
    ),
    { file: /\.go$/, content: /"log\/slog"/, what: 'Go log/slog' },
    {
      file: /\.py$/,
      content: /^\s*(import structlog|from structlog\b|from loguru import|import loguru|from pythonjsonlogger\b|import pythonjsonlogger)/m,
      what: 'Python logging library',
    },
    {
      file: /(^|\/)(logging[^/]*\.(conf|ini|ya?ml|json)|[^/]+\.py)$/,
      content: /JsonFormatter|jsonlogger|json_log_formatter|"format"\s*:\s*"json"|formatter\s*[:=]\s*["']?json/i,
      what: 'Python logging configured with a JSON formatter',
    },
    { file: /\.swift$/, content: /\bLogger\(\s*subsystem:|^\s*import OSLog\b|\bos_log\(|^\s*import Logging\b/m, what: 'Swift os.Logger/swift-log' },
    file('JVM logging configuration', /(^|\/)(logback(-spring|-test)?\.xml|log4j2?(-spring)?\.(xml|ya?ml|json|properties))$/),
    file('logger module', /(^|\/)(logger|logging|log)\.(ts|js|mjs|py|go|rs|rb)$/),
  ]),
  appEvidence('distributed_tracing', [
    dep(
      'tracing library',
      '@opentelemetry/api',
      '@opentelemetry/sdk-node',
      '@opentelemetry/sdk-trace-node',
      'opentelemetry-api',
      'opentelemetry-sdk',
      'go.opentelemetry.io/otel',
      'opentelemetry',
      'dd-trace',
      'ddtrace',
      'jaeger-client',
      'zipkin',
      'elastic-apm-node',
      'io.opentelemetry',
    ),
    source('request id propagation', /x-request-id|traceparent|x-correlation-id|requestIdHeader|genReqId/i),
  ]),
  appEvidence('metrics_collection', [
    dep(
      'metrics library',
      'prom-client',
      'prometheus_client',
      'github.com/prometheus/client_golang',
      'prometheus',
      'micrometer-registry-prometheus',
      'micrometer-core',
      'hot-shots',
      'node-statsd',
      'statsd',
      'datadog',
      'datadog-metrics',
      '@opentelemetry/sdk-metrics',
      'opentelemetry-sdk',
      'metrics',
      '@aws-sdk/client-cloudwatch',
      'newrelic',
    ),
  ]),
  appCheck('code_quality_metrics', async (ctx, app) => {
    const local = await firstEvidence(ctx, appFiles(ctx, app), [
      file(
        'quality tracking config',
        /(^|\/)(\.?codecov\.ya?ml|sonar-project\.properties|\.codeclimate\.ya?ml|\.coveralls\.yml|qlty\.toml|\.qlty\/qlty\.toml|\.deepsource\.toml|\.codacy\.ya?ml)$/,
      ),
      ci('quality tracking in CI', /codecov\/codecov-action|coverallsapp|sonarsource|sonarcloud|codeclimate|qlty|codacy|deepsource/i),
      {
        file: /(^|\/)(pom\.xml|build\.gradle(\.kts)?)$/,
        content: /sonar-maven-plugin|org\.sonarqube|jacoco-badge|coveralls/,
        what: 'quality tracking build plugin',
      },
      QUALITY_BADGE,
    ]);
    if (local) return pass(`found ${local}`);
    if ('unavailable' in ctx.forge)
      return fail(`no Codecov/Sonar/Code Climate/Codacy configuration or badge in ${appWhere(app)}; code scanning not read: ${ctx.forge.unavailable}`);
    try {
      const n = await ctx.forge.codeScanningAnalyses();
      return n > 0
        ? pass(`${n} recent code scanning analyses on ${ctx.forge.name}`)
        : fail(`no quality tracking configuration and no code scanning analyses on ${ctx.forge.name}`);
    } catch (e) {
      return skip(apiFailure(e));
    }
  }),
  appCheck('error_tracking_contextualized', async (ctx, app) => {
    const files = appFiles(ctx, app);
    const sdk = await firstEvidence(ctx, files, [dep('error tracking SDK', ...SENTRY_LIKE)]);
    if (!sdk) return fail(`no error tracking SDK (Sentry, Bugsnag, Rollbar, Honeybadger) in ${appWhere(app)}`);
    const context = await firstEvidence(ctx, files, [
      file('error tracking config', /(^|\/)(sentry\.[a-z]+\.config\.[cm]?[jt]s|\.sentryclirc|sentry\.properties|instrument\.[cm]?[jt]s)$/),
      dep('source map upload', '@sentry/webpack-plugin', '@sentry/vite-plugin', '@sentry/esbuild-plugin', '@sentry/cli'),
      source('error context', /setContext|setUser|setTag|addBreadcrumb|beforeSend|before_send|configure_scope/),
    ]);
    return context ? pass(`found ${sdk} with context: ${context}`) : fail(`found ${sdk} but no context (source maps, breadcrumbs, user or tags)`);
  }),
  appEvidence('alerting_configured', [
    dep('alerting integration', 'pagerduty', '@pagerduty/pdjs', 'opsgenie-sdk', 'pdpyras'),
    file('alert rules', /(^|\/)(alertmanager\.ya?ml|[^/]*alerts?[^/]*\.rules\.ya?ml|[^/]*alert[-_]?rules[^/]*\.ya?ml)$/i),
    {
      file: /\.(ya?ml|tf|json)$/,
      content: /^\s*- alert:\s|kind:\s*PrometheusRule|aws_cloudwatch_metric_alarm|AWS::CloudWatch::Alarm|datadog_monitor|pagerduty|opsgenie/im,
      what: 'alert definition',
    },
  ]),
  repoEvidence('runbooks_documented', [
    file('runbook', /(^|\/)(runbooks?|playbooks?)(\/.+|\.md)$|(^|\/)RUNBOOK[^/]*$/i),
    doc('runbook link or section', /\brunbooks?\b|\bplaybooks?\b|\bon-?call\b/i),
  ]),
  appEvidence('deployment_observability', [
    doc('dashboards or deploy notifications in docs', /\b(grafana|datadog|kibana|honeycomb|new ?relic|dashboards?)\b|deploy(ment)? notifications?/i),
    ci('deploy notification in CI', /slack-github-action|slackapi|notify[-_ ]deploy|deployment[-_ ]status|datadog-ci deployment|sentry-cli releases/i),
  ]),
  appEvidenceWhen('health_checks', [...DEPLOYMENT, ...WEB_FRAMEWORK], 'no deployment configuration or web framework: not deployed software', [
    { file: /(^|\/)(Dockerfile[^/]*|Containerfile)$/, content: /^HEALTHCHECK/m, what: 'Docker HEALTHCHECK' },
    { file: /\.ya?ml$/, content: /livenessProbe|readinessProbe|healthcheck:/, what: 'probe or compose healthcheck' },
    source('health endpoint', /["'`]\/(healthz?|readyz|livez|health-check|ping)["'`]/),
  ]),
  appEvidenceWhen('circuit_breakers', EXTERNAL, 'no external calls found (no HTTP client, cloud SDK or database dependency)', [
    dep(
      'circuit breaker or retry library',
      'opossum',
      'cockatiel',
      'p-retry',
      'async-retry',
      'axios-retry',
      'retry',
      'got',
      'tenacity',
      'backoff',
      'pybreaker',
      'resilience4j-circuitbreaker',
      'resilience4j-spring-boot3',
      'failsafe',
      'github.com/sony/gobreaker',
      'github.com/cenkalti/backoff',
      'github.com/hashicorp/go-retryablehttp',
      'github.com/avast/retry-go',
      'tokio-retry',
      'circuitbox',
      'semian',
      'retriable',
    ),
    { file: /\.ya?ml$/, content: /outlierDetection|circuitBreaker/, what: 'service mesh circuit breaking' },
  ]),
  appEvidenceWhen('profiling_instrumentation', [...DEPLOYMENT, ...WEB_FRAMEWORK], 'not a deployed service: continuous profiling is not meaningful', [
    dep(
      'profiler',
      '@pyroscope/nodejs',
      'pyroscope-io',
      'pyroscope',
      '@datadog/pprof',
      'dd-trace',
      'ddtrace',
      'clinic',
      '0x',
      'py-spy',
      'scalene',
      'memray',
      'pprof',
      'pprof-rs',
      '@sentry/profiling-node',
      'newrelic',
      'async-profiler',
      'github.com/grafana/pyroscope-go',
    ),
    { file: /\.go$/, content: /"net\/http\/pprof"|"runtime\/pprof"/, what: 'Go pprof' },
  ]),
];
