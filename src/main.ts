#!/usr/bin/env node
import type { Config } from './config.js';
import type { ApiCommand } from './cli/api/command.js';
import type { LocalName, LocalSpec } from './cli/local-specs.js';

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

/**
 * How each command of the model runs (src/cli/local-specs.ts has the words, summaries and flags of
 * these; a spec without a runner here does not compile). Loaded on demand.
 */
const runners: Record<LocalName, ClientCommand> = {
  serve: server(async () => (await import('./cli/serve.js')).serve),
  migrate: server(async () => (await import('./cli/admin-commands.js')).migrateCommand),
  init: server(async () => (await import('./cli/identity-commands.js')).init),
  usersAdd: server(async () => (await import('./cli/identity-commands.js')).usersAdd),
  usersList: server(async () => (await import('./cli/people-commands.js')).usersList),
  usersSetRole: server(async () => (await import('./cli/people-commands.js')).usersSetRole),
  usersInvite: server(async () => (await import('./cli/people-commands.js')).usersInvite),
  usersRemove: server(async () => (await import('./cli/people-commands.js')).usersRemove),
  keysCreate: server(async () => (await import('./cli/identity-commands.js')).keysCreate),
  keysList: server(async () => (await import('./cli/people-commands.js')).keysList),
  keysRevoke: server(async () => (await import('./cli/people-commands.js')).keysRevoke),
  orgsList: server(async () => (await import('./cli/people-commands.js')).orgsList),
  orgsSetPlan: server(async () => (await import('./cli/people-commands.js')).orgsSetPlan),
  serviceAccountsAdd: server(async () => (await import('./cli/identity-commands.js')).serviceAccountsAdd),
  ssoVerifyDomain: server(async () => (await import('./cli/sso-domain-commands.js')).ssoVerifyDomain),
  openapi: server(async () => (await import('./cli/admin-commands.js')).openapiCommand),
  demoSeed: server(async () => (await import('./cli/demo-command.js')).demoSeed),
  // The host agent runs on a byom machine and needs no database; it gets the environment here.
  agent: async (argv) => (await import('./computers/agent/command.js')).agentCommand(argv, process.env),
  // The hooks client is loaded on demand and gets the environment here: it reads no process.env itself.
  hooksRun: async (argv) => (await import('./hooks/commands.js')).hooksRun(argv, process.env),
  hooksValidate: async (argv) => (await import('./hooks/commands.js')).hooksValidate(argv, process.env),
  hooksList: async (argv) => (await import('./hooks/commands.js')).hooksList(argv, process.env),
  // The enforcement hook, as light as the hooks runner: the environment is handed to it here.
  guard: async (argv) => (await import('./guard/command.js')).guardCommand(argv, process.env),
  completion: async (argv) => {
    const [{ completionScript }, { completionEntries }] = await Promise.all([import('./cli/completion.js'), import('./cli/model.js')]);
    process.stdout.write(completionScript(argv[0], completionEntries(await model())));
    return 0;
  },
};

/** The local commands by name; loaded on the first use, so that `orgctl guard` never loads the model's data. */
async function localCommands(): Promise<Map<string, { spec: LocalSpec; run: ClientCommand }>> {
  const { LOCAL } = await import('./cli/local-specs.js');
  return new Map(Object.entries(LOCAL).map(([key, spec]) => [spec.name, { spec, run: runners[key as LocalName] }]));
}

/** The whole model, the commands over the API included (loaded only when needed: a hook process never is). */
async function model() {
  const [{ modelEntries }, { apiCommands }] = await Promise.all([import('./cli/command-list.js'), import('./cli/api/registry.js')]);
  return modelEntries(
    [...(await localCommands()).values()].map((l) => l.spec),
    apiCommands,
  );
}

/** A command that exists both ways goes over the API when a service is configured, else to the database. */
async function useApi(argv: string[]): Promise<boolean> {
  if (argv.includes('--local')) return false;
  if (argv.some((a) => a === '--url' || a.startsWith('--url='))) return true;
  if (process.env.ORGCTL_URL) return true;
  const { readClientConfig } = await import('./cli/api/client-config.js');
  return readClientConfig(process.env) !== undefined;
}

const HELP = ['--help', '-h'];

async function dispatch(argv: string[]): Promise<number> {
  const [first = '', second = ''] = argv;
  // The enforcement hook runs before every prompt: straight to its module (bench/guard.ts).
  if (first === 'guard' && !argv.some((a) => HELP.includes(a))) return runners.guard(argv.slice(1));
  if (first === '' || first === 'help' || HELP.includes(first)) {
    const { usage } = await import('./cli/command-list.js');
    process.stdout.write(`${usage(await model())}\n`);
    return first === '' ? 2 : 0;
  }
  const wantsHelp = argv.some((a) => HELP.includes(a));
  const localByName = await localCommands();
  const name = localByName.has(`${first} ${second}`) ? `${first} ${second}` : first;
  const local = localByName.get(name);
  if (local && !local.spec.overApi) {
    if (!wantsHelp) return local.run(argv.slice(name.split(' ').length));
    const [{ commandHelp }, { localEntry }] = await Promise.all([import('./cli/model.js'), import('./cli/command-list.js')]);
    process.stdout.write(commandHelp(localEntry(local.spec)));
    return 0;
  }
  if (local && !wantsHelp && !(await useApi(argv))) return local.run(argv.slice(name.split(' ').length).filter((a) => a !== '--local'));
  const entries = await model();
  const found = entries.find((e) => e.over === 'api' && e.spec.name === `${first} ${second}`) ?? entries.find((e) => e.over === 'api' && e.spec.name === first);
  if (found) {
    const words = found.spec.name.split(' ').length;
    if (wantsHelp) {
      const { commandHelp } = await import('./cli/model.js');
      process.stdout.write(commandHelp(found));
      return 0;
    }
    const { runApiCommand } = await import('./cli/api/command.js');
    return runApiCommand(found.spec as ApiCommand, argv.slice(words), process.env);
  }
  const { groupHelp, usage } = await import('./cli/command-list.js');
  const group = groupHelp(entries, first);
  if (group && (second === '' || HELP.includes(second))) {
    // `orgctl users --help` asks for the group's commands: stdout, exit 0. Without a second word it is a usage error.
    (second === '' ? process.stderr : process.stdout).write(group);
    return second === '' ? 2 : 0;
  }
  if (group) {
    process.stderr.write(`Unknown command: orgctl ${first} ${second}\n\n${group}`);
    return 2;
  }
  process.stderr.write(`Unknown command: ${argv.join(' ')}\n\n${usage(entries)}\n`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    return (await import('./cli/report-failure.js')).reportFailure(e);
  }
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
