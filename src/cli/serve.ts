import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { migrate } from '../core/db/migrate.js';
import { openDb } from '../core/db/open-db.js';
import { IdentityService } from '../core/identity/service.js';
import { parseFlags } from './args.js';

const DEFAULT_ORG = { name: 'default', ownerEmail: 'owner@example.com' };

/**
 * orgctl serve: migrates, creates a default organization on an empty database (printing its
 * owner key once), listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests
 * finish, closes the database and exits 0.
 */
export async function serve(argv: string[], config: Config): Promise<number> {
  parseFlags(argv, {});
  const db = await openDb(config);
  await migrate(db);
  const identity = new IdentityService(db);
  const firstStart = (await identity.listOrganizations()).length === 0 ? await identity.createOrganization(DEFAULT_ORG) : undefined;

  const app = await buildApp(config, { db });
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const lines = [`orgctl is listening on ${base} (${db.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`];
  if (firstStart) {
    lines.push(
      `First start: created organization "${DEFAULT_ORG.name}" with owner ${DEFAULT_ORG.ownerEmail}.`,
      `Owner API key (shown only now, keep it): ${firstStart.apiKey}`,
      `Try it:`,
      `  curl -H "Authorization: Bearer ${firstStart.apiKey}" ${base}/api/v0/me`,
    );
  }
  lines.push(`API description: ${base}/openapi.json   Browse: ${base}/docs`);
  process.stdout.write(`${lines.join('\n')}\n`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      const timer = setTimeout(() => {
        app.log.error('in-flight requests did not finish in time; exiting anyway');
        resolve(1);
      }, config.shutdownTimeoutMs);
      timer.unref();
      app
        .close()
        .then(() => db.close())
        .then(
          () => {
            clearTimeout(timer);
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
}
