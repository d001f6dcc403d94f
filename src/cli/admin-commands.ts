import { describeApi } from '../app.js';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import type { Config } from '../config.js';
import { output } from '../core/cli/args.js';
import { migrate } from '../core/db/migrate.js';
import { openDb } from '../core/db/open-db.js';

/** orgctl migrate: applies pending migrations and says which. */
export async function migrateCommand(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.migrate);
  const db = await openDb(config);
  const applied = await migrate(db).finally(() => db.close());
  output(values.json, { applied }, [applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.']);
  return 0;
}

/** orgctl openapi: prints the OpenAPI document generated from the route schemas (no database needed). */
export async function openapiCommand(argv: string[], config: Config): Promise<number> {
  parseCommand(argv, LOCAL.openapi);
  process.stdout.write(`${JSON.stringify(await describeApi(config), null, 2)}\n`);
  return 0;
}
