/**
 * The one model of orgctl's commands: every command, over the API or on the local database, is a
 * `CommandSpec` (its words, summary, arguments and flags). `--help`, the command lists and shell
 * completion are generated from it, and the database commands parse their flags from it, so a
 * command or flag added to the model shows everywhere without editing the help or completion code.
 * Plain data and pure functions: main.ts reads it before it knows which command will run.
 */
import { parseFlags, UsageError } from '../core/cli/args.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  description: string;
  /** Shown in help as --flag VALUE. */
  value?: string;
  choices?: readonly string[];
  multiple?: boolean;
  /** Help and the synopsis mark it required; the command checks it. */
  required?: boolean;
}

export interface Positional {
  name: string;
  description: string;
  optional?: boolean;
}

export interface CommandSpec {
  /** One or two words: `analytics tokens`. */
  name: string;
  summary: string;
  positionals?: readonly Positional[];
  flags?: Readonly<Record<string, FlagSpec>>;
}

/** A command as help and completion see it: its spec and every flag it takes, the shared ones included. */
export interface ModelEntry {
  spec: CommandSpec;
  /** Where it works: over the API, or on this machine. */
  over: 'api' | 'local';
  flags: Readonly<Record<string, FlagSpec>>;
  /** A command over the API that also administers the local database with --local: that form. */
  local?: ModelEntry;
}

export const HELP_FLAG: FlagSpec = { type: 'boolean', description: 'Show this help' };

const flagLeft = (name: string, f: FlagSpec) => `--${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`;

/** The flag lines of a help text, two spaces in. */
function flagLines(flags: Readonly<Record<string, FlagSpec>>): string[] {
  return Object.entries(flags).map(([name, f]) => {
    const choices = f.choices ? ` (${f.choices.join('|')})` : '';
    const more = `${f.required ? '; required' : ''}${f.multiple ? '; may be repeated' : ''}`;
    return `  ${flagLeft(name, f).padEnd(24)} ${f.description}${choices}${more}`;
  });
}

/** `orgctl NAME ARGS --required VALUE [flags]`. */
function usageLine(entry: ModelEntry): string {
  const { spec, flags } = entry;
  const positionals = (spec.positionals ?? []).map((p) => (p.optional ? `[${p.name}]` : p.name));
  const required = Object.entries(flags)
    .filter(([, f]) => f.required)
    .map(([n, f]) => flagLeft(n, f));
  const optional = Object.values(flags).some((f) => !f.required) ? ['[flags]'] : [];
  return ['orgctl', spec.name, ...positionals, ...required, ...optional].join(' ');
}

/** `orgctl COMMAND --help`. */
export function commandHelp(entry: ModelEntry): string {
  const { spec, flags } = entry;
  const lines = [`Usage: ${usageLine(entry)}`, '', spec.summary, ''];
  if (spec.positionals?.length) {
    lines.push('Arguments:');
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(24)} ${p.description}`);
    lines.push('');
  }
  lines.push('Flags:', ...flagLines(flags));
  if (entry.local) {
    const { help: _help, ...localFlags } = entry.local.flags;
    lines.push('', `With --local, on the machine of the service: ${usageLine(entry.local)}`, entry.local.spec.summary, ...flagLines(localFlags));
  }
  return `${lines.join('\n')}\n`;
}

/** One line of a command list: its name and summary. */
export const listLine = (spec: CommandSpec, indent = '  '): string => `${indent}${spec.name.padEnd(24)} ${spec.summary}`;

/** What shell completion needs of each command: its words and its flags. */
export const completionEntries = (entries: readonly ModelEntry[]): { name: string; flags: string[] }[] =>
  entries.map((e) => ({ name: e.spec.name, flags: [...new Set([...Object.keys(e.flags), ...Object.keys(e.local?.flags ?? {})])] }));

/** The flag that sends a command that exists both ways to the local database. */
export const LOCAL_FLAG: FlagSpec = { type: 'boolean', description: 'Administer the local database instead of calling the service (see below)' };

/** parseArgs options of a command's flags, literal types kept so the parsed values are typed. */
type ParseOptions<F> = {
  [K in keyof F]: { type: F[K] extends { type: 'string' } ? 'string' : 'boolean'; multiple: F[K] extends { multiple: true } ? true : false };
};

function parseOptions<F extends Readonly<Record<string, FlagSpec>>>(flags: F): ParseOptions<F> {
  return Object.fromEntries(Object.entries(flags).map(([n, f]) => [n, { type: f.type, multiple: f.multiple === true }])) as ParseOptions<F>;
}

/** A database command's flags, parsed by its spec: unknown flags, stray arguments and a value outside `choices` are usage errors. */
export function parseCommand<F extends Readonly<Record<string, FlagSpec>>>(argv: string[], spec: { flags: F; positionals?: readonly Positional[] }) {
  const parsed = parseFlags(argv, parseOptions(spec.flags), spec.positionals?.length ?? 0);
  for (const [name, f] of Object.entries(spec.flags)) {
    const v = (parsed.values as Record<string, unknown>)[name];
    if (f.choices && typeof v === 'string' && !f.choices.includes(v)) throw new UsageError(`--${name} must be one of: ${f.choices.join(', ')}.`);
  }
  return parsed;
}
