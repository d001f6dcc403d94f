import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../../core/cli/cli-error.js';
import { shellQuote } from '../../core/process/shell-quote.js';
import type { Edit } from './merge.js';

export const CLIENTS = ['claude-code', 'codex', 'gemini-cli', 'droid'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** Where a client's configuration goes: the person's own files, a repository's, or the organization's (printed only). */
export type Scope = 'user' | 'project' | 'managed';

/** What a client's configuration is made of. */
export interface Target {
  scope: Scope;
  /** The service's address, without a trailing slash. */
  url: string;
  /** The key records are sent with: the person's own, or (managed) a service account's. */
  key: string;
  /** The shell words that run this orgctl from a hook: its node and main.js, absolute and quoted; `orgctl` when managed. */
  orgctl: string;
  home: string;
  /** $CODEX_HOME, else ~/.codex. */
  codexHome: string;
  /** The repository (project scope). */
  project?: string;
  /** The placeholder of the person's email (managed only), filled by the administrator's tooling. */
  email?: string;
  /** The organization's policy when the service cannot check a limit (managed only): carried to every machine. */
  unreachable?: 'open' | 'closed';
}

/** A client's configuration: the files with what connect owns in them, and what must be in the environment instead. */
export interface Plan {
  edits: Edit[];
  /** Variables no file of the client can hold: the person exports them (or, managed, the system sets them). */
  env: Record<string, string>;
  /** What the person should know about where the client reads these from. */
  notes?: string[];
}

export function clientName(value: string | undefined): ClientName {
  if (value === undefined) throw new CliError(`Which client? orgctl connect CLIENT, one of: ${CLIENTS.join(', ')}.`, 2);
  if (!(CLIENTS as readonly string[]).includes(value)) throw new CliError(`Unknown client ${value}; one of: ${CLIENTS.join(', ')}.`, 2);
  return value as ClientName;
}

/** `<orgctl> guard EVENT --client CLIENT`, with `--email` when managed. */
export function guardCommand(t: Target, event: string, client: ClientName): string {
  return `${t.orgctl} guard ${event} --client ${client}${t.email !== undefined ? ` --email "${t.email}"` : ''}`;
}

/**
 * The SessionStart hook that records the session's repository (`guard repository`): under the
 * person's own key, or (managed) the service account's with `--email`, which names the person.
 */
export const repositoryHooks = (t: Target, client: ClientName): { event: string; command: string }[] => [
  { event: 'SessionStart', command: guardCommand(t, 'repository', client) },
];

/** The base directory of a scope's files: the home (or $CODEX_HOME) for the user, the repository for a project. */
export const scopeDir = (t: Target, user: string, project: string): string => (t.scope === 'project' ? path.join(t.project as string, project) : user);

/** The variables that carry the key and the email when an organization-wide key is used (managed). */
export function managedEnv(t: Target): Record<string, string> {
  if (t.scope !== 'managed') return {};
  // A closed policy travels with the settings: the guard blocks before its first answer too.
  const closed: Record<string, string> = t.unreachable === 'closed' ? { ORGCTL_UNREACHABLE: 'closed' } : {};
  return { OTEL_RESOURCE_ATTRIBUTES: `user.email=${t.email}`, ORGCTL_URL: t.url, ORGCTL_API_KEY: t.key, ...closed };
}

/** This orgctl as a hook runs it: the running node and this installation's main.js, absolute, so no PATH is needed. */
export const invocation = (): string => `${shellQuote(process.execPath)} ${shellQuote(fileURLToPath(new URL('../../main.js', import.meta.url)))}`;

/** The person's home and Codex's, as the clients find them (HOME, CODEX_HOME). */
export function homes(env: NodeJS.ProcessEnv): { home: string; codexHome: string } {
  const home = env.HOME || os.homedir();
  return { home, codexHome: env.CODEX_HOME || path.join(home, '.codex') };
}

export function projectDir(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const abs = path.resolve(dir);
  if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--project ${dir} is not a directory.`, 2);
  return abs;
}
