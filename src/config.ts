import { Type, type Static } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { ConfigError } from './config-error.js';
import { textAjv, problemsOf } from './core/validation/ajv.js';

export { ConfigError } from './config-error.js';

/**
 * Every setting of the service, read once from the environment and passed down.
 * Each entry maps an environment variable to a typed field; the README configuration table
 * lists every one (test/core/docs.test.ts checks).
 */
export const settings = {
  PORT: {
    key: 'port',
    schema: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
    doc: 'Port of the main API (http://127.0.0.1:8080 by default); also serves the application routes (readiness reports and the web app) unless APP_PORT is set.',
  },
  HOST: {
    key: 'host',
    schema: Type.String({ minLength: 1, default: '127.0.0.1' }),
    doc: 'Listen address. Use 0.0.0.0 to accept connections from other machines.',
  },
  APP_PORT: {
    key: 'appPort',
    schema: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    doc: 'When set, the application routes (readiness reports and the web app) move to their own listener on this port; the API calls the web app makes there are handed to the API.',
  },
  HEALTH_PORT: {
    key: 'healthPort',
    schema: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    doc:
      'When set, `/healthz` and `/readyz` are also served on their own listener on this port, in a thread of its own, and ' +
      "nothing else is: a load balancer's health check there waits neither behind a burst of connections to the main port " +
      'nor for a busy event loop; its `/healthz` answers 503 once the event loop has not turned for 5 s.',
  },
  DATA_DIR: {
    key: 'dataDir',
    schema: Type.String({ minLength: 1, default: './data' }),
    doc: 'Directory of the embedded PGlite database (ignored when DATABASE_URL is set).',
  },
  DATABASE_URL: {
    key: 'databaseUrl',
    schema: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
    doc: 'postgres://user:pass@host:port/db — use a PostgreSQL server instead of the embedded database.',
  },
  DATABASE_TIMEOUT_MS: {
    key: 'databaseTimeoutMs',
    schema: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 15_000 }),
    doc:
      'PostgreSQL: how long connecting, or one query, may take before the request gets 503 with Retry-After (a ' +
      'server that stopped answering would otherwise hold requests until the network gives up).',
  },
  DATABASE_POOL_SIZE: {
    key: 'databasePoolSize',
    schema: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
    doc: 'Connections per process to the PostgreSQL server.',
  },
  JWT_SECRET: {
    key: 'jwtSecret',
    schema: Type.Optional(Type.String({ minLength: 32 })),
    doc: 'HS256 secret (at least 32 characters) for verifying JWT bearer tokens.',
  },
  SECRETS_KEY: {
    key: 'secretsKey',
    schema: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$' })),
    doc:
      'Seals the secrets the service reads back (OIDC client secrets, webhook signing secrets) in the database with AES-256-GCM: ' +
      'a key of 32 bytes in base64 (`openssl rand -base64 32`); to rotate, put the new key first and the old one after a comma, and restart.',
  },
  JWT_JWKS_URL: {
    key: 'jwtJwksUrl',
    schema: Type.Optional(Type.String({ pattern: '^https?://' })),
    doc: 'JWKS URL for verifying JWT bearer tokens signed with asymmetric keys.',
  },
  JWT_ISSUER: { key: 'jwtIssuer', schema: Type.Optional(Type.String({ minLength: 1 })), doc: 'Required `iss` of JWT bearer tokens, when set.' },
  JWT_MAX_LIFETIME_S: {
    key: 'jwtMaxLifetimeS',
    schema: Type.Integer({ minimum: 60, maximum: 31_536_000, default: 86_400 }),
    doc: 'Longest a JWT bearer token may still be valid for: one whose exp lies further ahead (an exp in milliseconds, say) is refused, as is one issued (iat) in the future.',
  },
  JWT_AUDIENCE: { key: 'jwtAudience', schema: Type.Optional(Type.String({ minLength: 1 })), doc: 'Required `aud` of JWT bearer tokens, when set.' },
  AUTH_CACHE_TTL_MS: {
    key: 'authCacheTtlMs',
    schema: Type.Integer({ minimum: 0, maximum: 1000, default: 1000 }),
    doc: 'How long a verified credential is reused without a database read (at most 1000, so a revocation takes effect within one second).',
  },
  ANALYTICS_CACHE_MB: {
    key: 'analyticsCacheMb',
    schema: Type.Integer({ minimum: 0, maximum: 65536, default: 128 }),
    doc:
      'Analytics: memory per process for /tokens (also group_by=model) and /users rows already built (a year of ' +
      '/tokens rows of 200 daily users is about 50 MB, of their /users rows about 40 MB); 0 builds every row on ' +
      'every request.',
  },
  LOG_LEVEL: {
    key: 'logLevel',
    schema: Type.Union(
      [
        Type.Literal('fatal'),
        Type.Literal('error'),
        Type.Literal('warn'),
        Type.Literal('info'),
        Type.Literal('debug'),
        Type.Literal('trace'),
        Type.Literal('silent'),
      ],
      { default: 'info' },
    ),
    doc: 'pino log level.',
  },
  RATE_LIMITS: {
    key: 'rateLimits',
    schema: Type.Boolean({ default: true }),
    doc: 'Per-principal request rates by plan (docs/rate-limits.md); false turns them off (benchmarks).',
  },
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: {
    key: 'overloadMaxEventLoopDelayMs',
    schema: Type.Integer({ minimum: 0, default: 1000 }),
    doc: 'Past this event-loop delay, requests are answered 503 with Retry-After instead of queueing; 0 never sheds.',
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    key: 'httpHeadersTimeoutMs',
    schema: Type.Integer({ minimum: 100, maximum: 600_000, default: 15_000 }),
    doc:
      "How long a client may take to send a request's headers (from connecting, or from the start of its next " +
      'request) before it gets 408 and the connection is closed. At most HTTP_REQUEST_TIMEOUT_MS.',
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    key: 'httpRequestTimeoutMs',
    schema: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 120_000 }),
    doc: 'How long a client may take to send a whole request, headers and body (a 20 MiB OTLP export at 175 KB/s), before it gets 408 and the connection is closed. Answering is not counted.',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    key: 'httpKeepAliveTimeoutMs',
    schema: Type.Integer({ minimum: 100, maximum: 600_000, default: 72_000 }),
    doc: "How long an idle connection is kept open for a next request. Behind a load balancer, keep it above the balancer's own idle timeout (60 s on AWS ALB).",
  },
  HTTP_IDLE_TIMEOUT_MS: {
    key: 'httpIdleTimeoutMs',
    schema: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 90_000 }),
    doc: 'A connection on which no byte moves either way for this long is closed: a body that stalls, an answer nobody reads. Above the longest long poll (60 s); 0 never.',
  },
  HTTP_MAX_CONNECTIONS: {
    key: 'httpMaxConnections',
    schema: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 4096 }),
    doc: 'Open connections per process, over all its listeners; connections past it are closed at once. Lowered to leave room under the open-file limit (`ulimit -n`) when that is smaller.',
  },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    key: 'httpMaxConnectionsPerAddress',
    schema: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 256 }),
    doc: 'Open connections per client address; connections past it are closed at once. Behind a proxy or load balancer every connection comes from its address: raise it, or 0 (no bound).',
  },
  HTTP_BODY_MEMORY_MB: {
    key: 'httpBodyMemoryMb',
    schema: Type.Integer({ minimum: 1, maximum: 65536, default: 256 }),
    doc:
      'Memory per process for request bodies being read or inflated at once (announced or received bytes, and gzip ' +
      'output); a request that would pass it gets 503 with Retry-After. At least 20 lets the largest OTLP export in.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    key: 'shutdownTimeoutMs',
    schema: Type.Integer({ minimum: 0, default: 10000 }),
    doc: 'On SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway.',
  },
  CI_GIT_HOSTS: {
    key: 'ciGitHosts',
    schema: Type.String({ pattern: '^\\s*[^=,\\s]+=(github|git)\\s*(,\\s*[^=,\\s]+=(github|git)\\s*)*$', default: 'github.com=github' }),
    doc: 'CI automation: the allow-list of Git hosts, `host=github` (REST API) or `host=git` (plain git push), comma-separated. Repository URLs on any other host are refused.',
  },
  GITHUB_TOKEN: {
    key: 'githubToken',
    schema: Type.Optional(Type.String({ minLength: 1 })),
    doc: 'CI automation: token for the GitHub REST API (contents and pull requests write on the repositories).',
  },
  GITHUB_API_URL: {
    key: 'githubApiUrl',
    schema: Type.String({ pattern: '^https?://', default: 'https://api.github.com' }),
    doc: 'CI automation: GitHub REST API base URL; for GitHub Enterprise Server `https://HOST/api/v3`.',
  },
  CI_ALLOW_PRIVATE_NETWORK: {
    key: 'ciAllowPrivateNetwork',
    schema: Type.Boolean({ default: false }),
    doc: 'CI automation: allow repository URLs that resolve to loopback, private or link-local addresses, and file:// remotes (tests, on-premises Git servers).',
  },
  SSO_ALLOW_PRIVATE_ISSUER: {
    key: 'ssoAllowPrivateIssuer',
    schema: Type.Boolean({ default: false }),
    doc:
      'Single sign-on: allow identity providers (issuer, keys, token endpoint) on loopback, private or link-local addresses, ' +
      'and on plain http (an internal Keycloak, tests). Off, only public https issuers are fetched.',
  },
  SSO_VERIFIED_DOMAINS: {
    key: 'ssoVerifiedDomains',
    schema: Type.String({
      pattern:
        '^\\s*([A-Za-z0-9.-]+=[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\\s*(,\\s*[A-Za-z0-9.-]+=[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\\s*)*)?$',
      default: '',
    }),
    doc:
      "Single sign-on: the operator's allow-list of email domains and the organization each belongs to, `domain=ORG_ID` " +
      '(ids from `orgctl orgs list`), comma-separated. A listed domain is verified for its organization as soon as an owner ' +
      'adds it (and at start, if claimed already), and no other organization may claim it. Other domains wait for ' +
      '`orgctl sso verify-domain` (docs/sso.md, Domains).',
  },
  CI_WORK_DIR: {
    key: 'ciWorkDir',
    schema: Type.Optional(Type.String({ minLength: 1 })),
    doc: 'CI automation: directory for temporary Git clones (default: the system temp directory).',
  },
  CI_GIT_AUTHOR_NAME: {
    key: 'ciGitAuthorName',
    schema: Type.String({ minLength: 1, default: 'orgctl' }),
    doc: 'CI automation: author and committer name of plain-Git commits.',
  },
  CI_GIT_AUTHOR_EMAIL: {
    key: 'ciGitAuthorEmail',
    schema: Type.String({ minLength: 3, default: 'orgctl@localhost' }),
    doc: 'CI automation: author and committer email of plain-Git commits.',
  },
  CI_GIT_TIMEOUT_MS: {
    key: 'ciGitTimeoutMs',
    schema: Type.Integer({ minimum: 1000, default: 120000 }),
    doc: 'CI automation: how long one git command or GitHub request may take before it is abandoned (502).',
  },
  PUBLIC_URL: {
    key: 'publicUrl',
    schema: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
    doc:
      "The URL clients reach the service at (behind a proxy); links the service returns (computers' " +
      'relayClientUrl/relayAgentUrl, recorded pull requests) are built from it. Default: the URL each request came ' +
      'in on.',
  },
  TRUST_PROXY: {
    key: 'trustProxy',
    schema: Type.Union(
      [
        Type.Boolean(),
        Type.String({
          pattern:
            '^\\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f]*[.:][0-9A-Fa-f.:]*(/[0-9]{1,3})?)\\s*(,\\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f]*[.:][0-9A-Fa-f.:]*(/[0-9]{1,3})?)\\s*)*$',
        }),
      ],
      { default: false },
    ),
    doc:
      "Behind a reverse proxy: which X-Forwarded-For/-Proto/-Host headers to believe (Fastify's trustProxy): the " +
      "proxies' addresses and CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`), comma-separated; or `true`, " +
      'every hop (a client can then write the address it is counted under). The client address (per-address sign-in ' +
      'limits, logs) and the scheme (Secure cookies) come from them. Off: the headers are ignored.',
  },
  ORGCTL_SETUP_TOKEN: {
    key: 'setupToken',
    schema: Type.Optional(Type.String({ minLength: 16, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })),
    doc:
      'Web app first run: the token of the one-time setup URL `orgctl serve` prints while no owner has a password ' +
      "(default: a random one per start). At least 16 URL-safe characters. Each start's token replaces the earlier " +
      'ones and expires after 24 hours.',
  },
  E2B_API_KEY: {
    key: 'e2bApiKey',
    schema: Type.Optional(Type.String({ minLength: 1 })),
    doc: "Computers: enables the e2b provider (E2B sandboxes through the official SDK). Without it, an e2b computer's create-sandbox step fails at once.",
  },
  E2B_TEMPLATE: {
    key: 'e2bTemplate',
    schema: Type.String({ minLength: 1, default: 'base' }),
    doc: 'Computers: the E2B sandbox template of new e2b computers.',
  },
  COMPUTERS_LEASE_MS: {
    key: 'computersLeaseMs',
    schema: Type.Integer({ minimum: 200, default: 15000 }),
    doc: 'Computers: heartbeat timeout. A running step whose executor (host agent or engine) sends no heartbeat for this long is failed (byom: "host agent lost") or retried (e2b).',
  },
  COMPUTERS_ENGINE_TICK_MS: {
    key: 'computersEngineTickMs',
    schema: Type.Integer({ minimum: 10, default: 1000 }),
    doc: 'Computers: how often the provisioning engine of `orgctl serve` settles expired leases and claims e2b steps.',
  },
  COMPUTERS_MAX_ATTEMPTS: {
    key: 'computersMaxAttempts',
    schema: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
    doc: 'Computers: how many times an e2b step whose engine was lost is tried before it fails.',
  },
  COMPUTERS_AGENT_POLL_MS: {
    key: 'computersAgentPollMs',
    schema: Type.Integer({ minimum: 10, maximum: 10000, default: 250 }),
    doc: 'Computers: how often a held host-agent long poll looks for work queued by another `orgctl serve` process (work queued by the same process wakes it at once).',
  },
  WEBHOOKS_TICK_MS: {
    key: 'webhooksTickMs',
    schema: Type.Integer({ minimum: 10, default: 1000 }),
    doc: 'Webhooks: how often `orgctl serve` looks for due deliveries.',
  },
  WEBHOOKS_LEASE_MS: {
    key: 'webhooksLeaseMs',
    schema: Type.Integer({ minimum: 200, default: 60000 }),
    doc: 'Webhooks: how long a delivery being sent is held; one whose process died is sent again after this.',
  },
  WEBHOOKS_FIRST_RETRY_MS: {
    key: 'webhooksFirstRetryMs',
    schema: Type.Integer({ minimum: 10, default: 5000 }),
    doc: 'Webhooks: the delay before the first retry of a failed delivery; each next one doubles (up to 4 hours), for 24 hours.',
  },
  INSTALL_LOG_MAX_CHARS: {
    key: 'installLogMaxChars',
    schema: Type.Integer({ minimum: 1024, maximum: 16777216, default: 65536 }),
    doc: 'Computers: characters of output kept per install session and per step; longer output keeps its tail.',
  },
} as const;

type Settings = typeof settings;
type KeyOf<E extends keyof Settings> = Settings[E]['key'];
const ConfigSchema = Type.Object(
  Object.fromEntries(Object.values(settings).map((s) => [s.key, s.schema])) as {
    [E in keyof Settings as KeyOf<E>]: Settings[E]['schema'];
  },
);
export type Config = Static<typeof ConfigSchema>;

// Compiled on first use: commands that never read the configuration do not pay for it.
let validateConfig: ValidateFunction | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(settings)) {
    const v = env[name];
    if (v !== undefined && v !== '') raw[s.key] = v;
  }
  // Environment variables are text: the text mode of the one validator converts and fills in defaults.
  const config: Record<string, unknown> = { ...raw, ...overrides };
  const problems = problemsOf((validateConfig ??= textAjv.compile(ConfigSchema)), config);
  if (problems.length > 0) {
    const byKey = new Map(Object.entries(settings).map(([name, s]) => [s.key as string, name]));
    const lines = problems.map((p) => `${byKey.get(p.path.slice(1)) ?? p.path}: ${p.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  // Node refuses to start a server whose headers may take longer than the whole request.
  if ((config.httpHeadersTimeoutMs as number) > (config.httpRequestTimeoutMs as number)) {
    throw new ConfigError('Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS');
  }
  return config as Config;
}
