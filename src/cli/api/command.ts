import { parseArgs } from 'node:util';
import { flag, UsageError } from '../../core/cli/args.js';
import { createApiClient, serviceUrl, type OrgctlClient } from '../../client/api-client.js';
import { commandHelp as modelHelp, HELP_FLAG, type CommandSpec, type FlagSpec } from '../model.js';
import { readClientConfig } from './client-config.js';

export type OutputFormat = 'table' | 'json' | 'csv';

export type { FlagSpec, Positional } from '../model.js';

/** What a command's run gets: its parsed flags and the clients of the service, made on first use. */
export interface CommandContext {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  output: OutputFormat;
  env: NodeJS.ProcessEnv;
  /** The client of the main API (--url). */
  api(): OrgctlClient;
  /** The client of the application address (readiness reports; --app-url, else --url). */
  appApi(): OrgctlClient;
  /** Where the service is, as resolved from flags, environment and login. */
  connection(): Connection;
}

/** A command of the model (cli/model.ts) that works over the API. */
export interface ApiCommand extends CommandSpec {
  /** The output formats it offers; table first is the default. Commands without a list print json or a line. */
  outputs?: readonly OutputFormat[];
  /** Whether it calls the service (adds --url and --key). */
  remote?: boolean;
  run(ctx: CommandContext): Promise<number>;
}

export interface Connection {
  url: string;
  appUrl: string;
  key: string;
}

const CONNECTION_FLAGS: Record<string, FlagSpec> = {
  url: { type: 'string', value: 'URL', description: 'The service address (default: ORGCTL_URL, then the one `orgctl login` stored)' },
  key: { type: 'string', value: 'KEY', description: 'The API key (default: ORGCTL_API_KEY, then the one `orgctl login` stored)' },
  'app-url': {
    type: 'string',
    value: 'URL',
    description: 'The application address for readiness reports when it has its own port (default: ORGCTL_APP_URL, the login, then --url)',
  },
};

/** Every flag of a command, the shared ones included, in the order help lists them. */
export function allFlags(command: ApiCommand): Record<string, FlagSpec> {
  const outputs = command.outputs ?? [];
  return {
    ...command.flags,
    ...(outputs.length > 1 ? { output: { type: 'string', value: 'FORMAT', choices: outputs, description: `Output format (default ${outputs[0]})` } } : {}),
    ...(command.remote === false ? {} : CONNECTION_FLAGS),
    help: HELP_FLAG,
  };
}

export const commandHelp = (command: ApiCommand): string => modelHelp({ spec: command, over: 'api', flags: allFlags(command) });

/** Flags, then environment, then the stored login. */
export function resolveConnection(values: CommandContext['values'], env: NodeJS.ProcessEnv): Connection {
  const stored = readClientConfig(env);
  const pick = (flag: unknown, envValue: string | undefined, storedValue: string | undefined) =>
    (typeof flag === 'string' && flag !== '' ? flag : undefined) ?? (envValue ? envValue : undefined) ?? storedValue;
  const url = pick(values.url, env.ORGCTL_URL, stored?.url);
  const key = pick(values.key, env.ORGCTL_API_KEY, stored?.key);
  if (!url || !key) {
    throw new UsageError(
      `No ${!url ? 'service address' : 'API key'}: run \`orgctl login --url URL\`, or pass --url and --key, or set ORGCTL_URL and ORGCTL_API_KEY.`,
    );
  }
  const appUrl = pick(values['app-url'], env.ORGCTL_APP_URL, stored?.appUrl) ?? url;
  try {
    return { url: serviceUrl(url), appUrl: serviceUrl(appUrl), key };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A service that holds a request longer than this is treated as unreachable (exit 3). */
const CALL_TIMEOUT_MS = 60_000;

/** Parses argv against the command's flags and runs it; --help prints the help instead. */
export async function runApiCommand(command: ApiCommand, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = allFlags(command);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(flags).map(([n, f]) => [n, { type: f.type, ...(f.multiple ? { multiple: true } : {}) }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${commandHelp(command)}`);
  }
  const values = parsed.values as CommandContext['values'];
  if (values.help) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  const expected = command.positionals ?? [];
  if (parsed.positionals.length > expected.length)
    throw new UsageError(`Unexpected argument: ${parsed.positionals[expected.length]}\n\n${commandHelp(command)}`);
  const missing = expected.find((p, i) => !p.optional && parsed.positionals[i] === undefined);
  if (missing) throw new UsageError(`Missing ${missing.name}.\n\n${commandHelp(command)}`);
  for (const [name, f] of Object.entries(flags)) {
    const v = values[name];
    if (f.choices && typeof v === 'string' && !f.choices.includes(v)) throw new UsageError(`--${name} must be one of ${f.choices.join(', ')}; got ${v}.`);
  }
  const outputs = command.outputs ?? [];
  const output = ((values.output as string | undefined) ?? outputs[0] ?? 'json') as OutputFormat;
  let connection: Connection | undefined;
  const connect = () => (connection ??= resolveConnection(values, env));
  let api: OrgctlClient | undefined;
  let appApi: OrgctlClient | undefined;
  return command.run({
    values,
    positionals: parsed.positionals,
    output,
    env,
    connection: connect,
    api: () => (api ??= createApiClient({ url: connect().url, key: connect().key, timeoutMs: CALL_TIMEOUT_MS })),
    appApi: () => (appApi ??= createApiClient({ url: connect().appUrl, key: connect().key, timeoutMs: CALL_TIMEOUT_MS })),
  });
}

export { flag };

export const requiredFlag = (ctx: CommandContext, name: string): string => {
  const v = flag(ctx, name);
  if (v === undefined || v === '') throw new UsageError(`Missing --${name}.`);
  return v;
};

/** A whole number flag (digits, `_` and `,` allowed as separators). */
export const integerFlag = (ctx: CommandContext, name: string): number | undefined => {
  const v = flag(ctx, name);
  if (v === undefined) return undefined;
  const digits = v.replace(/[_,]/g, '');
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(Number(digits))) throw new UsageError(`--${name} must be a whole number, got ${v}.`);
  return Number(digits);
};
