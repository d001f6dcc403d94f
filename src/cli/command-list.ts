import { allFlags, type ApiCommand } from './api/command.js';
import type { LocalSpec } from './local-specs.js';
import { HELP_FLAG, LOCAL_FLAG, listLine, type ModelEntry } from './model.js';

/** A local command as the model lists it: its own flags and --help. */
export const localEntry = (spec: LocalSpec): ModelEntry => ({ spec, over: 'local', flags: { ...spec.flags, help: HELP_FLAG } });

/**
 * Every command of the model, in the order `orgctl --help` lists them: the local ones, then those
 * over the API. A name that exists both ways is one entry, the API's, with the local form under
 * `local` (reached with --local).
 */
export function modelEntries(local: readonly LocalSpec[], api: readonly ApiCommand[]): ModelEntry[] {
  const both = new Set(api.map((c) => c.name));
  const entries: ModelEntry[] = local.filter((s) => !both.has(s.name)).map(localEntry);
  for (const c of api) {
    const localForm = local.find((s) => s.name === c.name);
    entries.push(
      localForm
        ? { spec: c, over: 'api', flags: { ...allFlags(c), local: LOCAL_FLAG }, local: localEntry(localForm) }
        : { spec: c, over: 'api', flags: allFlags(c) },
    );
  }
  return entries;
}

/** `orgctl --help`. */
export function usage(entries: readonly ModelEntry[]): string {
  const local = entries.filter((e) => e.over === 'local').map((e) => listLine(e.spec));
  const remote = entries.filter((e) => e.over === 'api').map((e) => listLine(e.spec) + (e.local ? ' (--local: the database)' : ''));
  const both = entries.filter((e) => e.local).map((e) => e.spec.name);
  return [
    'Usage: orgctl <command> [options]    (orgctl <command> --help lists every flag)',
    '',
    'Service and database administration (on the machine that runs the service), and the clients that run there:',
    ...local,
    '',
    'Over the API (orgctl login --url URL, or --url/--key, or ORGCTL_URL/ORGCTL_API_KEY):',
    ...remote,
    '',
    `${both.join(', ')} work over the API when a service is configured; --local makes them administer the database.`,
  ].join('\n');
}

/** The commands whose first word is `first` (`orgctl users --help`), or undefined when it names no group. */
export function groupHelp(entries: readonly ModelEntry[], first: string): string | undefined {
  const group = entries.filter((e) => e.spec.name.startsWith(`${first} `));
  if (group.length === 0) return undefined;
  return `orgctl ${first} commands:\n${group.map((e) => listLine(e.spec, '  orgctl ')).join('\n')}\n`;
}
