import type { FastifyBaseLogger } from 'fastify';
import { tmpdir } from 'node:os';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { serviceLog } from './core/log.js';
import type { Db } from './core/db/db.js';
import { BodyBudget } from './core/http/body-budget.js';
import { ConnectionGuard } from './core/http/connections.js';
import { withDb } from './core/db/with-db.js';
import { AccountsService } from './core/accounts/service.js';
import { Authenticator } from './core/identity/authenticator.js';
import { JwtVerifier } from './core/identity/jwt-verifier.js';
import { OperatorIdentity } from './core/identity/operator.js';
import { IdentityService } from './core/identity/service.js';
import { LimitsService, type CreditsUsage } from './limits/service.js';
import { AnalyticsService } from './analytics/service.js';
import { TelemetryService } from './telemetry/service.js';
import { OtlpService } from './otlp/service.js';
import { AutomationsService } from './automations/service.js';
import { GitHubHost } from './automations/github-host.js';
import { PlainGitHost } from './automations/plain-git-host.js';
import { parseHostList } from './automations/repo-target.js';
import { ReadinessService } from './readiness/service.js';
import { AgentChannel } from './computers/agent-channel.js';
import { ProvisioningEngine } from './computers/engine.js';
import { SdkE2bClient, type E2bClient } from './computers/providers/e2b-client.js';
import { ComputersService } from './computers/service.js';
import { TeamsService } from './teams/service.js';
import { SsoPasswordPolicy } from './sso/password-policy.js';
import { SsoService } from './sso/service.js';
import { SsoSignIn } from './sso/sign-in.js';
import { parseVerifiedDomains } from './sso/verified-domains.js';
import { ScimGroups } from './scim/groups.js';
import { ScimTokens } from './scim/tokens.js';
import { ScimUsers } from './scim/users.js';
import { WorkSignal } from './computers/work-signal.js';
import { AlertsService } from './alerts/service.js';
import { WebhooksService } from './webhooks/service.js';
import { DEFAULT_DELIVERY, DeliveryWorker } from './webhooks/worker.js';
import { SecretBox } from './core/secrets/secret-box.js';

export interface ServiceDeps {
  db: Db;
  /** The time of every decision the services make (expiries, leases, periods); by default the system's. */
  clock?: Clock;
  /** Credits used per principal; by default the analytics rollups of ingested telemetry. */
  usage?: CreditsUsage;
  /** The E2B cloud for e2b computers; by default the official SDK when E2B_API_KEY is set. */
  e2b?: E2bClient;
  /** The process's logger; by default one at LOG_LEVEL on stdout, credentials redacted. */
  log?: FastifyBaseLogger;
}

/** Every service of one process, each built once and given its dependencies. */
export interface Services {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Identity for a principal's requests (the routes) and for the other services. */
  identity: IdentityService;
  /** Identity for the operator's commands and serve's first start, which act with no principal. */
  operatorIdentity: OperatorIdentity;
  authenticator: Authenticator;
  accounts: AccountsService;
  analytics: AnalyticsService;
  telemetry: TelemetryService;
  otlp: OtlpService;
  limits: LimitsService;
  teams: TeamsService;
  /** Single sign-on: the owners' configuration and events, and the sign-in flow. */
  sso: SsoService;
  ssoSignIn: SsoSignIn;
  /** SCIM 2.0 provisioning: its users (people), groups (teams) and the organization's tokens. */
  scimUsers: ScimUsers;
  scimGroups: ScimGroups;
  scimTokens: ScimTokens;
  alerts: AlertsService;
  webhooks: WebhooksService;
  /** Webhook deliveries in the background: built here, started by `orgctl serve` once it listens. */
  deliveries: DeliveryWorker;
  readiness: ReadinessService;
  automations: AutomationsService;
  computers: ComputersService;
  agentChannel: AgentChannel;
  /** Provisioning in the background: built here, started by `orgctl serve` once it listens. */
  engine: ProvisioningEngine;
  /** The process's bounds on request bodies held and on connections, shared by its listeners. */
  bodies: BodyBudget;
  connections: ConnectionGuard;
}

/**
 * The one place services are made, for `orgctl serve`, the commands that open the database and
 * the tests, and the one place that reads the configuration for them: each service takes one
 * dependencies object (its `…Deps`) holding the services it uses and its settings, never the
 * configuration. Building touches nothing: no query runs, no timer starts.
 */
export function buildServices(config: Config, deps: ServiceDeps): Services {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const log = deps.log ?? serviceLog(config);
  const e2b = deps.e2b ?? (config.e2bApiKey ? new SdkE2bClient(config.e2bApiKey) : undefined);
  const authenticator = new Authenticator({
    db,
    jwt: new JwtVerifier({ settings: config, clock }),
    clock,
    cacheTtlMs: config.authCacheTtlMs,
    // The embedded database belongs to this process, so every revocation, role change and
    // removal passes through the identity services below, which tells the authenticator at once.
    soleWriter: db.engine === 'pglite',
    onBackgroundError: (err) => log.warn({ err }, 'background credential work failed'),
  });
  const policy = { allowPrivateNetwork: config.ciAllowPrivateNetwork };
  const secrets = new SecretBox(config.secretsKey);
  const webhooks = new WebhooksService({ db, policy, clock, secrets });
  const identity = new IdentityService({ db, clock, cache: authenticator, outbox: webhooks });
  const alerts = new AlertsService({ db, sink: webhooks, clock });
  const analytics = new AnalyticsService({ db, cacheBytes: config.analyticsCacheMb * 1024 * 1024, clock, usageListener: alerts });
  const telemetry = new TelemetryService({ db, identity, analytics, clock });
  const signal = new WorkSignal(clock);
  const computers = new ComputersService({
    db,
    identity,
    settings: { e2bConfigured: e2b !== undefined, allowPrivateNetwork: config.ciAllowPrivateNetwork },
    signal,
    clock,
    e2b,
  });
  const teams = new TeamsService({ db, identity, clock });
  const ssoPolicy = new SsoPasswordPolicy({ db, clock });
  const accounts = new AccountsService({ db, identity, clock, passwordPolicy: (user) => ssoPolicy.check(user) });
  const sso = new SsoService({
    db,
    teams,
    clock,
    secrets,
    issuerPolicy: { allowPrivate: config.ssoAllowPrivateIssuer },
    verifiedDomains: parseVerifiedDomains(config.ssoVerifiedDomains),
  });
  return {
    db,
    clock,
    log,
    identity,
    operatorIdentity: new OperatorIdentity({ db, identity, clock, cache: authenticator }),
    authenticator,
    accounts,
    analytics,
    telemetry,
    otlp: new OtlpService({ db, identity, analytics, clock }),
    limits: new LimitsService({ db, identity, usage: deps.usage ?? analytics, teams, clock }),
    teams,
    sso,
    ssoSignIn: new SsoSignIn({ db, sso, identity, accounts, teams, clock }),
    scimUsers: new ScimUsers({ db, identity, clock }),
    scimGroups: new ScimGroups({ db, teams }),
    scimTokens: new ScimTokens({ db, clock }),
    alerts,
    webhooks,
    deliveries: new DeliveryWorker({
      db,
      settings: { ...DEFAULT_DELIVERY, tickMs: config.webhooksTickMs, leaseMs: config.webhooksLeaseMs, firstRetryMs: config.webhooksFirstRetryMs, policy },
      clock,
      log,
      secrets,
    }),
    readiness: new ReadinessService({ db, clock, outbox: webhooks }),
    automations: new AutomationsService({
      db,
      hosts: {
        git: new PlainGitHost({
          workDir: config.ciWorkDir ?? tmpdir(),
          timeoutMs: config.ciGitTimeoutMs,
          author: { name: config.ciGitAuthorName, email: config.ciGitAuthorEmail },
        }),
        github: new GitHubHost({ token: config.githubToken, baseUrl: config.githubApiUrl, timeoutMs: config.ciGitTimeoutMs }),
      },
      policy: { hosts: parseHostList(config.ciGitHosts), allowPrivateNetwork: config.ciAllowPrivateNetwork },
      outbox: webhooks,
    }),
    computers,
    agentChannel: new AgentChannel({
      db,
      computers,
      settings: { leaseMs: config.computersLeaseMs, pollMs: config.computersAgentPollMs, logMaxChars: config.installLogMaxChars },
      signal,
      clock,
      outbox: webhooks,
    }),
    engine: new ProvisioningEngine({
      db,
      settings: {
        tickMs: config.computersEngineTickMs,
        leaseMs: config.computersLeaseMs,
        maxAttempts: config.computersMaxAttempts,
        logMaxChars: config.installLogMaxChars,
        concurrency: 8,
        e2bTemplate: config.e2bTemplate,
      },
      e2b,
      clock,
      log,
      outbox: webhooks,
    }),
    bodies: new BodyBudget(config.httpBodyMemoryMb * 1024 * 1024),
    connections: new ConnectionGuard({
      settings: { maxConnections: config.httpMaxConnections, maxPerAddress: config.httpMaxConnectionsPerAddress, firstByteMs: config.httpHeadersTimeoutMs },
      log,
    }),
  };
}

/** For the commands that administer the database: opens it (migrated), builds the services, runs fn, closes it. */
export function withServices<T>(config: Config, fn: (services: Services) => Promise<T>): Promise<T> {
  return withDb(config, (db) => fn(buildServices(config, { db })));
}

/**
 * At start, before listening: stored secrets take the form SECRETS_KEY asks for (sealed once a key
 * is set, sealed again under a new first key). Throws SecretsKeyError when one is sealed with a key
 * the setting does not hold.
 */
export async function resealSecrets(services: Pick<Services, 'sso' | 'webhooks'>): Promise<void> {
  await services.sso.resealSecrets();
  await services.webhooks.resealSecrets();
}
