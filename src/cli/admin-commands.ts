import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openApiDocument } from '../core/http/openapi.js';
import { output, parseFlags } from '../core/cli/args.js';
import { migrate } from '../core/db/migrate.js';
import { openDb } from '../core/db/open-db.js';

/** orgctl migrate: applies pending migrations and says which. */
export async function migrateCommand(argv: string[], config: Config): Promise<number> {
  const { values } = parseFlags(argv, { json: { type: 'boolean' } });
  const db = await openDb(config);
  const applied = await migrate(db).finally(() => db.close());
  output(values.json, { applied }, [applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.']);
  return 0;
}

/** orgctl openapi: prints the OpenAPI document generated from the route schemas. */
export async function openapiCommand(argv: string[], config: Config): Promise<number> {
  parseFlags(argv, {});
  const app = await buildApp({ ...config, logLevel: 'silent' }, { db: unusedDb });
  await app.ready();
  process.stdout.write(`${JSON.stringify(openApiDocument(app), null, 2)}\n`);
  await app.close();
  return 0;
}

/** Generating the API description needs the routes, not a database. */
const unusedDb = {
  engine: 'pglite' as const,
  query: () => Promise.reject(new Error('no database')),
  queryMany: () => Promise.reject(new Error('no database')),
  exec: () => Promise.reject(new Error('no database')),
  transaction: () => Promise.reject(new Error('no database')),
  close: async () => undefined,
};
