import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Db } from './core/db/db.js';
import { accountsRoutes } from './core/accounts/routes.js';
import { AccountsService } from './core/accounts/service.js';
import { registerAccessControl } from './core/http/access.js';
import { listenerOrigin } from './core/http/listener-origin.js';
import { forwardApiRequests } from './core/http/api-forward.js';
import { registerWebPages, type PageFallback } from './core/http/web-pages.js';
import { ErrorObject } from './core/http/error-schema.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './core/http/error-handler.js';
import { errors } from './core/http/errors.js';
import { registerOverloadShedding } from './core/http/overload.js';
import { registerRateLimits } from './core/http/rate-limits.js';
import { registerSecurityHeaders } from './core/http/security-headers.js';
import { bodyNulErrors, registerNulGuard } from './core/http/nul-guard.js';
import { healthRoutes } from './core/http/health.js';
import { packageDownloadRoutes } from './core/http/package-download.js';
import { registerOpenApi } from './core/http/openapi.js';
import { genRequestId, registerRequestLog } from './core/http/request-log.js';
import { buildValidator } from './core/http/validation.js';
import { Authenticator } from './core/identity/authenticator.js';
import { JwtVerifier } from './core/identity/jwt-verifier.js';
import { identityRoutes } from './core/identity/routes.js';
import { IdentityService } from './core/identity/service.js';
import { limitsRoutes } from './limits/routes.js';
import { LimitsService, type CreditsUsage } from './limits/service.js';
import { analyticsRoutes } from './analytics/routes.js';
import { AnalyticsService } from './analytics/service.js';
import { telemetryRoutes } from './telemetry/routes.js';
import { TelemetryService } from './telemetry/service.js';
import { otlpRoutes } from './otlp/routes.js';
import { OtlpService } from './otlp/service.js';
import { automationsRoutes } from './automations/routes.js';
import { AutomationsService } from './automations/service.js';
import { readinessRoutes } from './readiness/routes.js';
import { ReadinessService } from './readiness/service.js';
import { computersPlugin } from './computers/area.js';
import type { E2bClient } from './computers/providers/e2b-client.js';

export const BODY_LIMIT = 1024 * 1024;

/**
 * The two addresses of the spec: `api` ({base_url}: /api/v0, /api/v1) and `app` ({app_url}:
 * readiness reports). One listener serves both unless APP_PORT gives `app` its own.
 */
export type Surface = 'api' | 'app';
export const ALL_SURFACES: readonly Surface[] = ['api', 'app'];

export interface AppDeps {
  db: Db;
  /** Credits used per principal; by default the analytics rollups of ingested telemetry. */
  usage?: CreditsUsage;
  /** The E2B cloud for e2b computers; by default the official SDK when E2B_API_KEY is set. */
  e2b?: E2bClient;
  /** The built web app (dist/web), served at `/` of the app surface; without it, no pages. */
  webRoot?: string;
  /** The app serving the api surface, when this one serves only `app` (APP_PORT): its pages' API calls go there. */
  api?: FastifyInstance;
  /** The time of every decision the services make (expiries, leases, periods); by default the system's. */
  clock?: Clock;
}

/**
 * Where the web app's pages are, for links the service hands out (invitations): PUBLIC_URL, or the
 * address this request reached, on APP_PORT when the application has its own listener.
 */
export function appOrigin(config: Config, request: FastifyRequest): string {
  if (config.publicUrl !== undefined) return new URL(config.publicUrl).origin;
  const origin = new URL(listenerOrigin(request));
  if (config.appPort !== undefined && config.appPort !== 0) origin.port = String(config.appPort);
  return origin.origin;
}

/** Builds the HTTP service. Nothing listens yet, and importing this module has no side effects. */
export async function buildApp(config: Config, deps: AppDeps, surfaces: readonly Surface[] = ALL_SURFACES): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: genRequestId,
    // Fastify's two lines per request are replaced by our single one (core/http/request-log.ts).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Requests arriving on open connections while shutting down are still served, in our error format if they fail.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
  });
  app.addSchema(ErrorObject);

  // JSON is the only request body type; an empty body counts as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    parseJson(request, text, (err: Error | null, body?: unknown) => {
      if (err) return done(err);
      const nul = bodyNulErrors(text, body);
      done(nul.length > 0 ? errors.invalid(nul) : null, body);
    });
  });

  const clock = deps.clock ?? systemClock;
  const identity = new IdentityService(deps.db, clock);
  const authenticator = new Authenticator(deps.db, new JwtVerifier(config, clock), {
    clock,
    cacheTtlMs: config.authCacheTtlMs,
    // Keys are revoked only through the api surface, so only an app serving it sees every
    // revocation of the process; an app-surface-only listener (APP_PORT) keeps the 1 s expiry.
    soleWriter: deps.db.engine === 'pglite' && surfaces.includes('api'),
    onBackgroundError: (err) => app.log.warn({ err }, 'background credential work failed'),
  });
  identity.onRevoke = (keyId) => authenticator.forgetKey(keyId);
  const analytics = new AnalyticsService(deps.db, { cacheBytes: config.analyticsCacheMb * 1024 * 1024 }, clock);
  const telemetry = new TelemetryService(deps.db, identity, analytics, clock);
  const otlp = new OtlpService(deps.db, identity, telemetry, clock);
  const limits = new LimitsService(deps.db, identity, deps.usage ?? analytics, clock);
  const readiness = new ReadinessService(deps.db);
  const automations = AutomationsService.fromConfig(deps.db, config);
  const accounts = new AccountsService(deps.db, identity, clock);
  let pageFallback: PageFallback = () => false;

  registerRequestLog(app);
  registerSecurityHeaders(app);
  registerErrorHandling(app, { pageFallback: (request, reply) => pageFallback(request, reply) });
  // Before the access hook, which reads the session cookie.
  await app.register(fastifyCookie);
  registerAccessControl(app, authenticator, accounts, { publicUrl: config.publicUrl });
  registerNulGuard(app);
  await registerOverloadShedding(app, { maxEventLoopDelayMs: config.overloadMaxEventLoopDelayMs });
  await registerRateLimits(app, deps.db, { enabled: config.rateLimits });
  await registerOpenApi(app);

  await app.register(healthRoutes(deps.db));
  await app.register(packageDownloadRoutes);
  if (surfaces.includes('api')) {
    await app.register(identityRoutes(identity));
    await app.register(accountsRoutes(accounts, (request) => appOrigin(config, request)));
    await app.register(limitsRoutes(limits));
    await app.register(automationsRoutes(automations));
    await app.register(telemetryRoutes(telemetry));
    await app.register(otlpRoutes(otlp));
    await app.register(analyticsRoutes(analytics));
    await app.register(computersPlugin(config, deps.db, identity, deps.e2b, clock));
  }
  if (surfaces.includes('app')) {
    await app.register(readinessRoutes(readiness));
    pageFallback = await registerWebPages(app, deps.webRoot);
    if (deps.api && !surfaces.includes('api')) forwardApiRequests(app, deps.api);
  }
  return app;
}
