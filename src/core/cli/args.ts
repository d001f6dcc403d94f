import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** parseArgs with our conventions: unknown flags and stray positionals are usage errors. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, positionals = 0) {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length > positionals) throw new UsageError(`Unexpected argument: ${parsed.positionals[positionals]}`);
    return parsed;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError((e as Error).message);
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`Missing --${flag}.`);
  return value;
}

/** Prints `json` when --json was given, else the human lines. */
export function output(asJson: boolean | undefined, json: unknown, lines: string[]): void {
  process.stdout.write(asJson ? `${JSON.stringify(json)}\n` : `${lines.join('\n')}\n`);
}

/** A string flag's value, or undefined. */
export const flag = (ctx: { values: Record<string, unknown> }, name: string): string | undefined => {
  const v = ctx.values[name];
  return typeof v === 'string' ? v : undefined;
};
