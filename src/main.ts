#!/usr/bin/env node
import { UsageError } from './core/cli/args.js';
import { CliError } from './core/cli/cli-error.js';
import { ConfigError } from './config-error.js';
import type { Config } from './config.js';
import { DataDirInUseError } from './core/db/data-dir-lock.js';
import { AppError } from './core/http/errors.js';

type Command = (argv: string[], config: Config) => Promise<number>;
type ClientCommand = (argv: string[]) => Promise<number>;

/**
 * Commands are loaded on demand, so a client command (hooks, agent) starts quickly and never
 * fails on a server setting; server commands get the validated configuration. The configuration
 * module too is loaded on demand: its schemas bring TypeBox and ajv, which a hook process does not need.
 */
const server =
  (load: () => Promise<Command>): ClientCommand =>
  async (argv) => {
    const [command, { loadConfig }] = await Promise.all([load(), import('./config.js')]);
    return command(argv, loadConfig(process.env));
  };

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
  'users invite': {
    run: server(async () => (await import('./cli/people-commands.js')).usersInvite),
    help: 'users invite --email E --role owner|manager|member|guest [--org-id ID] [--json]: print a one-time web app link (valid 7 days) that sets their password',
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
    run: server(async () => (await import('./cli/demo-command.js')).demoSeed),
    help: 'demo seed --users N --days D [--seed S] [--org-id ID] [--json]: add N demo users and D days of their telemetry, ending yesterday (UTC)',
  },
  // The host agent runs on a byom machine and needs no database; it gets the environment here.
  agent: {
    run: async (argv) => (await import('./computers/agent/command.js')).agentCommand(argv, process.env),
    help: 'agent --url URL --key KEY --computer NAME [--workdir DIR]: run the host agent of a byom computer on this machine (ORGCTL_URL, ORGCTL_API_KEY)',
  },
  // The hooks client is loaded on demand and gets the environment here: it reads no process.env itself.
  'hooks run': {
    run: async (argv) => (await import('./hooks/commands.js')).hooksRun(argv, process.env),
    help: 'hooks run EVENT [--config F]... [--cwd D] [--session-id S] [--message M] [--reason R] [--tool-name T] [--stop-hook-active]: run the hooks, print the result; exit 0 continue, 2 blocked, 1 error',
  },
  'hooks validate': {
    run: async (argv) => (await import('./hooks/commands.js')).hooksValidate(argv, process.env),
    help: 'hooks validate [--config F]... [--cwd D] [--json]: check the hook configuration files',
  },
  'hooks list': {
    run: async (argv) => (await import('./hooks/commands.js')).hooksList(argv, process.env),
    help: 'hooks list [--config F]... [--cwd D] [--tool-name T] [--json]: show what would run for each event',
  },
};

type ApiRegistry = readonly import('./cli/api/command.js').ApiCommand[];
const loadApiCommands = async (): Promise<ApiRegistry> => (await import('./cli/api/registry.js')).apiCommands;

/** The keys commands exist twice: over the API when a service is configured, else on the local database. */
const DUAL = new Set(['keys list', 'keys create', 'keys revoke']);

async function useApiForDual(argv: string[]): Promise<boolean> {
  if (argv.includes('--local')) return false;
  if (argv.some((a) => a === '--url' || a.startsWith('--url='))) return true;
  if (process.env.ORGCTL_URL) return true;
  const { readClientConfig } = await import('./cli/api/client-config.js');
  return readClientConfig(process.env) !== undefined;
}

async function usage(): Promise<string> {
  const api = await loadApiCommands();
  const local = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(24)} ${c.help}`);
  const remote = api.map((c) => `  ${c.name.padEnd(24)} ${c.summary}`);
  return [
    'Usage: orgctl <command> [options]    (orgctl <command> --help lists every flag)',
    '',
    'Service and database administration (on the machine that runs the service):',
    ...local,
    '',
    'Over the API (orgctl login --url URL, or --url/--key, or ORGCTL_URL/ORGCTL_API_KEY):',
    ...remote,
    `  ${'completion'.padEnd(24)} completion bash|zsh: print a shell completion script (source <(orgctl completion bash))`,
    '',
    'keys list|create|revoke work over the API when a service is configured; --local makes them administer the database.',
  ].join('\n');
}

async function completion(argv: string[]): Promise<number> {
  const { completionScript } = await import('./cli/completion.js');
  const { allFlags } = await import('./cli/api/command.js');
  const api = await loadApiCommands();
  const byName = new Map<string, string[]>();
  for (const [name, c] of Object.entries(commands))
    byName.set(name, [...new Set([...c.help.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1] as string)), 'help']);
  for (const c of api) byName.set(c.name, [...new Set([...(byName.get(c.name) ?? []), ...Object.keys(allFlags(c)), ...(DUAL.has(c.name) ? ['local'] : [])])]);
  byName.set('completion', []);
  process.stdout.write(
    completionScript(
      argv[0],
      [...byName].map(([name, flags]) => ({ name, flags })),
    ),
  );
  return 0;
}

async function dispatch(argv: string[]): Promise<number> {
  const [first = '', second = ''] = argv;
  if (first === '' || first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(`${await usage()}\n`);
    return first === '' ? 2 : 0;
  }
  if (first === 'completion') return completion(argv.slice(1));
  const pair = `${first} ${second}`;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (!(DUAL.has(pair) && (wantsHelp || (await useApiForDual(argv))))) {
    const two = commands[pair];
    const one = commands[first];
    const [command, rest] = two ? [two, argv.slice(2)] : one ? [one, argv.slice(1)] : [undefined, []];
    if (command) {
      if (wantsHelp && !DUAL.has(pair)) {
        process.stdout.write(`orgctl ${command.help}\n`);
        return 0;
      }
      return command.run(rest.filter((a) => a !== '--local'));
    }
  }
  const api = await loadApiCommands();
  const found = api.find((c) => c.name === pair) ?? api.find((c) => c.name === first);
  if (found) {
    const { runApiCommand, commandHelp } = await import('./cli/api/command.js');
    if (DUAL.has(pair) && wantsHelp) {
      process.stdout.write(`${commandHelp(found)}  --local                  Administer the local database instead: orgctl ${commands[pair]?.help ?? ''}\n`);
      return 0;
    }
    return runApiCommand(found, argv.slice(found.name.split(' ').length), process.env);
  }
  const group = api.filter((c) => c.name.startsWith(`${first} `)).map((c) => `  orgctl ${c.name.padEnd(24)} ${c.summary}`);
  const local = Object.entries(commands)
    .filter(([n]) => n.startsWith(`${first} `))
    .map(([, c]) => `  orgctl ${c.help}`);
  if (group.length || local.length) {
    process.stderr.write(`${second ? `Unknown command: orgctl ${first} ${second}\n\n` : ''}orgctl ${first} commands:\n${[...group, ...local].join('\n')}\n`);
    return 2;
  }
  process.stderr.write(`Unknown command: ${argv.join(' ')}\n\n${await usage()}\n`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    return reportFailure(e);
  }
}

/** Every failure the user can act on is one message on stderr and an exit code, never a stack. */
async function reportFailure(e: unknown): Promise<number> {
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
  const { ApiError, ServiceUnreachableError } = await import('./client/api-client.js');
  if (e instanceof ApiError) {
    const problems = (e.metadata?.errors as { path?: string; message?: string }[] | undefined) ?? [];
    const lines = [
      `Error: ${e.detail}`,
      ...problems.map((p) => `  ${p.path || '/'} ${p.message ?? ''}`),
      `(HTTP ${e.status}${e.requestId ? `, request id ${e.requestId}` : ''}${typeof e.metadata?.code === 'string' ? `, code ${e.metadata.code}` : ''})`,
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    return 1;
  }
  if (e instanceof ServiceUnreachableError) {
    process.stderr.write(`${e.message}\n`);
    return 3;
  }
  throw e;
}

/** Exits once what was written has left: on a pipe, stdout is asynchronous and would be cut short. */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

// An unexpected failure is one line too; ORGCTL_DEBUG=1 adds the stack for a bug report.
main(process.argv.slice(2)).then(exitAfterFlush, (e) => {
  const stack = process.env.ORGCTL_DEBUG ? (e as Error)?.stack : undefined;
  process.stderr.write(`orgctl: unexpected error: ${stack ?? (e instanceof Error ? e.message : String(e))}\n`);
  exitAfterFlush(1);
});
