import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Config } from './config.js';
import { accountsRoutes } from './core/accounts/routes.js';
import { registerAccessControl } from './core/http/access.js';
import { registerPublicUrl } from './core/http/public-url.js';
import { forwardApiRequests } from './core/http/api-forward.js';
import { registerWebPages, type PageFallback } from './core/http/web-pages.js';
import { registerErrorHandling } from './core/http/error-handler.js';
import { baseApp } from './core/http/base-app.js';
import { errors } from './core/http/errors.js';
import { registerOverloadShedding } from './core/http/overload.js';
import { registerBodyBudget } from './core/http/body-budget.js';
import { registerUnreadBodyClose } from './core/http/unread-body.js';
import { registerRateLimits } from './core/http/rate-limits.js';
import { registerSecurityHeaders } from './core/http/security-headers.js';
import { bodyNulErrors, registerNulGuard } from './core/http/nul-guard.js';
import { healthRoutes } from './core/http/health.js';
import { packageDownloadRoutes } from './core/http/package-download.js';
import { openApiDocument, registerOpenApi } from './core/http/openapi.js';
import { registerRequestLog } from './core/http/request-log.js';
import { identityRoutes } from './core/identity/routes.js';
import { limitsRoutes } from './limits/routes.js';
import { teamsRoutes } from './teams/routes.js';
import { ssoRoutes } from './sso/routes.js';
import { SCIM_PREFIX, scimRoutes } from './scim/routes.js';
import { scimTokenRoutes } from './scim/token-routes.js';
import { alertsRoutes } from './alerts/routes.js';
import { webhooksRoutes } from './webhooks/routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { telemetryRoutes } from './telemetry/routes.js';
import { connectionsRoutes } from './otlp/connections-routes.js';
import { otlpRoutes } from './otlp/routes.js';
import { automationsRoutes } from './automations/routes.js';
import { readinessRoutes } from './readiness/routes.js';
import { computersRoutes } from './computers/routes.js';
import { notOpened } from './core/db/not-opened.js';
import { buildServices, type ServiceDeps, type Services } from './services.js';

/**
 * The two addresses of the service: `api` (/api/v0, /api/v1) and `app` (readiness reports and
 * the web app). One listener serves both unless APP_PORT gives `app` its own.
 */
export type Surface = 'api' | 'app';
export const ALL_SURFACES: readonly Surface[] = ['api', 'app'];

/** What an app is built from: the services of the process (shared by its listeners), or what to build them from. */
export type AppDeps = ({ services: Services } | ServiceDeps) & Listener;

interface Listener {
  /** The built web app (dist/web), served at `/` of the app surface; without it, no pages. */
  webRoot?: string;
  /** The app serving the api surface, when this one serves only `app` (APP_PORT): its pages' API calls go there. */
  api?: FastifyInstance;
}

/** Builds the HTTP service. Nothing listens yet, and importing this module has no side effects. */
export function buildApp(config: Config, deps: AppDeps, surfaces: readonly Surface[] = ALL_SURFACES): Promise<FastifyInstance> {
  return assemble(config, 'services' in deps ? deps.services : buildServices(config, deps), deps, surfaces);
}

/**
 * The OpenAPI document of every route, for `orgctl openapi`: the services are built over a
 * database that is never opened (building touches nothing), the routes registered for their
 * schemas, and none is ever called.
 */
export async function describeApi(config: Config): Promise<unknown> {
  const services = buildServices(config, { db: notOpened(), log: pino({ level: 'silent' }) });
  const app = await assemble(config, services, {}, ALL_SURFACES);
  await app.ready();
  const document = openApiDocument(app);
  await app.close();
  return document;
}

async function assemble(config: Config, services: Services, deps: Listener, surfaces: readonly Surface[]): Promise<FastifyInstance> {
  const app = baseApp(config, services.log);

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

  const { authenticator, accounts } = services;
  let pageFallback: PageFallback = () => false;

  registerRequestLog(app);
  registerPublicUrl(app, { publicUrl: config.publicUrl, appPort: config.appPort });
  registerSecurityHeaders(app);
  registerErrorHandling(app, { pageFallback: (request, reply) => pageFallback(request, reply) });
  // Before the access hook, which reads the session cookie.
  await app.register(fastifyCookie);
  registerAccessControl(app, authenticator, accounts, { publicUrl: config.publicUrl });
  registerNulGuard(app);
  services.connections.attach(app.server);
  registerBodyBudget(app, services.bodies);
  registerUnreadBodyClose(app);
  await registerOverloadShedding(app, { maxEventLoopDelayMs: config.overloadMaxEventLoopDelayMs });
  await registerRateLimits(app, services.db, { enabled: config.rateLimits });
  await registerOpenApi(app);

  // Each area is a plugin whose options name the services it needs; it is handed the process's.
  await app.register(healthRoutes, services);
  await app.register(packageDownloadRoutes);
  if (surfaces.includes('api')) {
    await app.register(identityRoutes, services);
    await app.register(accountsRoutes, services);
    await app.register(limitsRoutes, services);
    await app.register(teamsRoutes, services);
    await app.register(ssoRoutes, services);
    await app.register(scimTokenRoutes, services);
    await app.register(scimRoutes, { ...services, prefix: SCIM_PREFIX });
    await app.register(alertsRoutes, services);
    await app.register(webhooksRoutes, services);
    await app.register(automationsRoutes, services);
    await app.register(telemetryRoutes, services);
    await app.register(otlpRoutes, services);
    await app.register(connectionsRoutes, services);
    await app.register(analyticsRoutes, services);
    await app.register(computersRoutes, services);
  }
  if (surfaces.includes('app')) {
    await app.register(readinessRoutes, services);
    pageFallback = await registerWebPages(app, deps.webRoot);
    if (deps.api && !surfaces.includes('api')) forwardApiRequests(app, deps.api);
  }
  return app;
}
