#!/usr/bin/env node
import { UsageError } from './cli/args.js';
import { CliError } from './cli/cli-error.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirInUseError } from './core/db/data-dir-lock.js';
import { AppError } from './core/http/errors.js';

type Command = (argv: string[], config: Config) => Promise<number>;
type ClientCommand = (argv: string[]) => Promise<number>;

/**
 * Commands are loaded on demand, so a client command (hooks, agent) starts quickly and never
 * fails on a server setting; server commands get the validated configuration.
 */
const server =
  (load: () => Promise<Command>): ClientCommand =>
  async (argv) =>
    (await load())(argv, loadConfig(process.env));

/** Each command is named by one or two words; the rest of argv is its own. */
const commands: Record<string, { run: ClientCommand; help: string }> = {
  serve: { run: server(async () => (await import('./cli/serve.js')).serve), help: 'Start the HTTP service (PORT, HOST, DATA_DIR or DATABASE_URL).' },
  migrate: { run: server(async () => (await import('./cli/admin-commands.js')).migrateCommand), help: 'Apply pending database migrations.' },
  init: {
    run: server(async () => (await import('./cli/identity-commands.js')).init),
    help: 'init --org NAME --owner-email EMAIL [--json]: create an organization, its owner and a key.',
  },
  'users add': {
    run: server(async () => (await import('./cli/identity-commands.js')).usersAdd),
    help: 'users add --email E --role owner|manager|member|guest [--name N] [--org-id ID] [--json]',
  },
  'keys create': {
    run: server(async () => (await import('./cli/identity-commands.js')).keysCreate),
    help: 'keys create --email E | --principal-id ID [--name N] [--org-id ID] [--json]',
  },
  'users list': {
    run: server(async () => (await import('./cli/people-commands.js')).usersList),
    help: 'users list [--org-id ID] [--json]: the users and service accounts, with their roles and working keys',
  },
  'users set-role': {
    run: server(async () => (await import('./cli/people-commands.js')).usersSetRole),
    help: 'users set-role --email E --role owner|manager|member|guest [--org-id ID] [--json] (the last owner stays owner)',
  },
  'users remove': {
    run: server(async () => (await import('./cli/people-commands.js')).usersRemove),
    help: 'users remove --email E [--org-id ID] [--json]: remove a user and their keys (not the last owner)',
  },
  'keys list': {
    run: server(async () => (await import('./cli/people-commands.js')).keysList),
    help: 'keys list [--email E] [--org-id ID] [--json]: key metadata (prefix, holder, state, created, last used), never secrets',
  },
  'keys revoke': {
    run: server(async () => (await import('./cli/people-commands.js')).keysRevoke),
    help: 'keys revoke KEY_ID [--json]: the key authenticates nothing from now on',
  },
  'orgs list': {
    run: server(async () => (await import('./cli/people-commands.js')).orgsList),
    help: 'orgs list [--json]: the organizations, with how many users and service accounts each has',
  },
  'orgs set-plan': {
    run: server(async () => (await import('./cli/people-commands.js')).orgsSetPlan),
    help: 'orgs set-plan --plan free|team|enterprise [--org-id ID] [--json]: the request rates of the organization (docs/rate-limits.md)',
  },
  'service-accounts add': {
    run: server(async () => (await import('./cli/identity-commands.js')).serviceAccountsAdd),
    help: 'service-accounts add --name N --role manager|member [--org-id ID] [--json]',
  },
  openapi: { run: server(async () => (await import('./cli/admin-commands.js')).openapiCommand), help: 'Print the OpenAPI document.' },
  'demo seed': {
    run: server(async () => (await import('./analytics/demo-command.js')).demoSeed),
    help: 'demo seed --users N --days D [--seed S] [--org-id ID] [--json]: add N demo users and D days of their telemetry, ending yesterday (UTC)',
  },
  // The host agent runs on a byom machine and needs no database; it gets the environment here.
  agent: {
    run: async (argv) => (await import('./computers/agent/command.js')).agentCommand(argv, process.env),
    help: 'agent --url URL --key KEY --computer NAME [--workdir DIR]: run the host agent of a byom computer on this machine (ORGCTL_URL, ORGCTL_API_KEY)',
  },
  // Loaded on demand; the service address and key come from flags or ORGCTL_URL / ORGCTL_API_KEY, read here.
  'readiness upload': {
    run: server(async () => {
      const { readinessUpload } = await import('./readiness/upload-command.js');
      return (argv, config) => readinessUpload(argv, config, { url: process.env.ORGCTL_URL, key: process.env.ORGCTL_API_KEY });
    }),
    help: 'readiness upload FILE|- [--url URL] [--key KEY] [--json]: send a readiness report to a running service (ORGCTL_URL, ORGCTL_API_KEY)',
  },
  // The hooks client is loaded on demand and gets the environment here: it reads no process.env itself.
  'hooks run': { run: async (argv) => (await import('./hooks/commands.js')).hooksRun(argv, process.env), help: 'hooks run EVENT [--config F]... [--cwd D] [--session-id S] [--message M] [--reason R] [--tool-name T] [--stop-hook-active]: run the hooks, print the result; exit 0 continue, 2 blocked, 1 error' },
  'hooks validate': { run: async (argv) => (await import('./hooks/commands.js')).hooksValidate(argv, process.env), help: 'hooks validate [--config F]... [--cwd D] [--json]: check the hook configuration files' },
  'hooks list': { run: async (argv) => (await import('./hooks/commands.js')).hooksList(argv, process.env), help: 'hooks list [--config F]... [--cwd D] [--tool-name T] [--json]: show what would run for each event' },
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
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    if (e instanceof CliError) {
      process.stderr.write(`${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof AppError || e instanceof DataDirInUseError) {
      process.stderr.write(`${e instanceof AppError ? e.detail : e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/** Exits once what was written has left: on a pipe, stdout is asynchronous and would be cut short. */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exitAfterFlush, (e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  exitAfterFlush(1);
});
