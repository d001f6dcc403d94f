import type { AddressInfo } from 'node:net';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ALL_SURFACES, buildApp } from '../app.js';
import type { Config } from '../config.js';
import { systemClock } from '../core/clock.js';
import { HealthThread } from '../core/http/health-thread.js';
import { migrate } from '../core/db/migrate.js';
import { openDb } from '../core/db/open-db.js';
import { buildServices, resealSecrets } from '../services.js';
import { SecretsKeyError } from '../core/secrets/secret-box.js';
import { CliError } from '../core/cli/cli-error.js';

const DEFAULT_ORG = { name: 'default', ownerEmail: 'owner@example.com' };

/** The web app built beside the compiled code (dist/web). */
const WEB_ROOT = fileURLToPath(new URL('../web/', import.meta.url));

/** What `serve --demo` seeds on a first start: enough for every analytics endpoint to show a team. */
const DEMO = { users: 12, days: 60, seed: 1 };

/**
 * orgctl serve [--demo]: migrates, creates a default organization on an empty database (printing
 * its owner key once; with --demo, also demo telemetry for it), listens, and on SIGTERM/SIGINT
 * stops accepting, lets in-flight requests finish, closes the database and exits 0.
 */
export async function serve(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.serve);
  const db = await openDb(config);
  await migrate(db);
  const split = config.appPort !== undefined;
  const services = buildServices(config, { db });
  await resealSecrets(services).catch(async (e: unknown) => {
    await db.close();
    if (e instanceof SecretsKeyError) throw new CliError(`${e.message} Start with the key that sealed it in SECRETS_KEY (docs/deployment.md, Secrets).`);
    throw e;
  });
  // The allow-list may have grown since an owner claimed a domain: claims it names are verified now.
  const listed = await services.sso.applyVerifiedDomains();
  if (listed.verified.length) services.log.info({ domains: listed.verified }, 'SSO domains verified by SSO_VERIFIED_DOMAINS');
  if (listed.conflicts.length)
    services.log.warn({ domains: listed.conflicts }, 'SSO_VERIFIED_DOMAINS names domains verified for another organization; they stay there');
  const app = await buildApp(config, { services, webRoot: WEB_ROOT }, split ? ['api'] : ALL_SURFACES);
  // A promise that failed with nobody listening must not stop the service for everyone: it is
  // logged (a request's own failures already become its 500), and the process keeps serving.
  process.on('unhandledRejection', (err) => app.log.error({ err }, 'unhandled promise rejection (the service keeps running)'));
  const webApp = split ? await buildApp(config, { services, webRoot: WEB_ROOT, api: app }, ['app']) : undefined;
  // Listening comes before a first start creates anything: with the port taken, the process
  // stops having created nothing, instead of leaving an owner whose key nobody saw.
  let base: string;
  let webBase: string;
  let healthBase: string | undefined;
  let health: HealthThread | undefined;
  try {
    base = await listen(app, config.host, config.port);
    webBase = webApp ? await listen(webApp, config.host, config.appPort as number) : base;
    // In a thread of its own, so that a check there never waits for the main event loop.
    if (config.healthPort !== undefined) {
      const started = await HealthThread.start({ config, db, log: services.log, connections: services.connections, clock: systemClock });
      health = started.thread;
      healthBase = baseUrl(config.host, started.port);
    }
  } catch (e) {
    await Promise.all([app.close(), webApp?.close(), health?.close()]);
    await db.close();
    throw listenError(e, config);
  }
  const { operatorIdentity, accounts, engine, deliveries } = services;
  const firstStart = (await operatorIdentity.listOrganizations()).length === 0 ? await operatorIdentity.createOrganization(DEFAULT_ORG) : undefined;
  // Through the ingestion service; the first analytics call already has numbers.
  const demo = firstStart && values.demo ? await (await import('./demo-command.js')).seedDemo(services, firstStart.orgId, DEMO) : undefined;
  const keyless = firstStart ? [] : await operatorIdentity.ownersWithoutKeys();
  // Until an owner has a password, the web app's first page is reached through a one-time link.
  const setups = await accounts.issueSetupTokens(config.setupToken);
  // Provisioning runs in the background once the service listens; stopping it releases its leases.
  engine.start();
  deliveries.start();

  const where = db.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const lines = [`orgctl is listening on ${base} (${where})`];
  if (webApp) lines.push(`Application address (readiness reports) on ${webBase}`);
  if (healthBase) lines.push(`Health checks on ${healthBase}/healthz and ${healthBase}/readyz`);
  if (firstStart) {
    lines.push(
      `First start: created organization "${DEFAULT_ORG.name}" with owner ${DEFAULT_ORG.ownerEmail}.`,
      `Owner API key (shown only now, keep it): ${firstStart.apiKey}`,
      `Try it:`,
      `  curl -H "Authorization: Bearer ${firstStart.apiKey}" ${base}/api/v0/me`,
    );
    if (demo) {
      lines.push(
        `Demo data: ${demo.users} users and ${demo.events} telemetry events from ${demo.firstDay} to ${demo.lastDay}:`,
        `  curl -H "Authorization: Bearer ${firstStart.apiKey}" "${base}/api/v1/analytics/activity?startDate=${demo.firstDay}&endDate=${demo.lastDay}"`,
      );
    } else {
      lines.push(`Analytics stay empty until agents send telemetry. For demo data, start on an empty data directory with --demo (npm start -- --demo).`);
    }
  } else if (keyless.length > 0) {
    const stop = db.engine === 'pglite' ? 'stop the service (the embedded database belongs to one process) and run' : 'run';
    for (const o of keyless)
      lines.push(`The owner ${o.email} of organization "${o.orgName}" has no working API key. To make one, ${stop}: orgctl keys create --email ${o.email}`);
  }
  if (!firstStart && values.demo) {
    lines.push(`--demo seeds only a first start (an empty database); to add demo data here: orgctl demo seed --users ${DEMO.users} --days ${DEMO.days}`);
  }
  const appUrl = config.publicUrl !== undefined ? new URL(config.publicUrl).origin : webBase;
  for (const s of setups) {
    lines.push(`Web app first run: set the password of ${s.email} (owner of "${s.orgName}") at this one-time URL:`, `  ${appUrl}/setup#token=${s.token}`);
  }
  lines.push(`Web app: ${appUrl}/`);
  lines.push(`API description: ${base}/openapi.json   Browse: ${base}/docs`);
  // The handlers go in before the lines go out: whoever reads them may signal at once, and a
  // signal without a handler would kill the process instead of stopping it.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      // The shutdown deadline is in real time, whatever the services' clock says: the system clock's timer.
      const timer = systemClock.timeout(
        () => {
          app.log.error('in-flight requests did not finish in time; exiting anyway');
          resolve(1);
        },
        config.shutdownTimeoutMs,
        { keepAlive: false },
      );
      Promise.all([app.close(), webApp?.close(), health?.close(), engine.stop(), deliveries.stop()])
        .then(() => db.close())
        .then(
          () => {
            timer.cancel();
            resolve(0);
          },
          (err) => {
            app.log.error({ err }, 'shutdown failed');
            resolve(1);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return stopped;
}

/** A port that is taken, or may not be used, is one line for the user; anything else stays as it is. */
function listenError(e: unknown, config: Config): unknown {
  const code = (e as { code?: string }).code;
  const port = (e as { port?: number }).port ?? config.port;
  if (code === 'EADDRINUSE')
    return new CliError(
      `Cannot listen on ${config.host}:${port}: the port is in use by another process. Stop it, or choose another port with PORT=${port === 8080 ? 8081 : port + 1}.`,
    );
  if (code === 'EACCES')
    return new CliError(`Cannot listen on ${config.host}:${port}: permission denied (ports below 1024 need privileges). Choose another port with PORT.`);
  if (code === 'EADDRNOTAVAIL') return new CliError(`Cannot listen on ${config.host}:${port}: this machine has no such address. Check HOST.`);
  return e;
}

/** Listens and returns the base URL to print (loopback when listening on every address). */
async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ port, host });
  return baseUrl(host, (app.server.address() as AddressInfo).port);
}

function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
