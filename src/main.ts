#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirInUseError } from './core/db/open-db.js';
import { AppError } from './core/http/errors.js';
import { migrateCommand, openapiCommand } from './cli/admin-commands.js';
import { UsageError } from './cli/args.js';
import { init, keysCreate, serviceAccountsAdd, usersAdd } from './cli/identity-commands.js';
import { serve } from './cli/serve.js';

type Command = (argv: string[], config: Config) => Promise<number>;

/** Each command is named by one or two words; the rest of argv is its own. */
const commands: Record<string, { run: Command; help: string }> = {
  serve: { run: serve, help: 'Start the HTTP service (PORT, HOST, DATA_DIR or DATABASE_URL).' },
  migrate: { run: migrateCommand, help: 'Apply pending database migrations.' },
  init: { run: init, help: 'init --org NAME --owner-email EMAIL [--json]: create an organization, its owner and a key.' },
  'users add': { run: usersAdd, help: 'users add --email E --role owner|manager|member|guest [--name N] [--org-id ID] [--json]' },
  'keys create': { run: keysCreate, help: 'keys create --email E | --principal-id ID [--name N] [--org-id ID] [--json]' },
  'service-accounts add': { run: serviceAccountsAdd, help: 'service-accounts add --name N --role manager|member [--org-id ID] [--json]' },
  openapi: { run: openapiCommand, help: 'Print the OpenAPI document.' },
};

function usage(): string {
  return ['Usage: orgctl <command> [options]', '', ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(22)} ${c.help}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [first = '', second = ''] = argv;
  if (first === '' || first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(`${usage()}\n`);
    return first === '' ? 2 : 0;
  }
  const two = commands[`${first} ${second}`];
  const one = commands[first];
  const [command, rest] = two ? [two, argv.slice(2)] : one ? [one, argv.slice(1)] : [undefined, []];
  if (!command) {
    process.stderr.write(`Unknown command: ${argv.join(' ')}\n\n${usage()}\n`);
    return 2;
  }
  try {
    return await command.run(rest, loadConfig(process.env));
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    if (e instanceof AppError || e instanceof DataDirInUseError) {
      process.stderr.write(`${e instanceof AppError ? e.detail : e.message}\n`);
      return 1;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
