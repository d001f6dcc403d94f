import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { hookEvents, type HookEvent } from './events.js';
import type { HookEntry } from './schemas.js';
import { HooksConfigError, validateHooksDocument, type ConfigIssue } from './validate-config.js';

/** A configuration file to read; a missing default file is normal, a missing explicit one is not. */
export interface HookFile {
  path: string;
  explicit: boolean;
}

export type SourcedEntry = HookEntry & { source: string };

export interface LoadedHooks {
  /** The files that existed and were read, in merge order. */
  files: string[];
  events: Record<HookEvent, SourcedEntry[]>;
}

/** The variables of the caller's environment this module looks at. */
export interface HookFilesEnv {
  HOME?: string;
  ORGCTL_HOOKS_USER?: string;
}

/**
 * The user file (`$ORGCTL_HOOKS_USER`, else `~/.orgctl/hooks.json`), then the project file
 * (`<cwd>/.orgctl/hooks.json`), so project hooks run after the user's own.
 */
export function defaultHookFiles(env: HookFilesEnv, cwd: string): HookFile[] {
  const user = path.resolve(env.ORGCTL_HOOKS_USER || path.join(env.HOME || homedir(), '.orgctl', 'hooks.json'));
  const project = path.resolve(cwd, '.orgctl', 'hooks.json');
  // Working in the home directory makes both the same file; reading it twice would only repeat it.
  return (user === project ? [user] : [user, project]).map((p) => ({ path: p, explicit: false }));
}

/**
 * Reads, validates and merges the files: each event's entries are concatenated in file
 * order. Every fault of every file is collected before throwing, so one run shows them all.
 */
export async function loadHooksConfig(files: HookFile[]): Promise<LoadedHooks> {
  const loaded: LoadedHooks = { files: [], events: Object.fromEntries(hookEvents.map((e) => [e, []])) as unknown as LoadedHooks['events'] };
  const issues: ConfigIssue[] = [];
  for (const file of files) {
    const text = await readText(file, issues);
    if (text === undefined) continue;
    loaded.files.push(file.path);
    const doc = parseJson(text, file.path, issues);
    if (doc === undefined) continue;
    const { hooks, issues: found } = validateHooksDocument(doc, file.path);
    issues.push(...found);
    for (const event of hookEvents) {
      for (const entry of hooks[event] ?? []) loaded.events[event].push({ ...entry, source: file.path });
    }
  }
  if (issues.length > 0) throw new HooksConfigError(issues);
  return loaded;
}

async function readText(file: HookFile, issues: ConfigIssue[]): Promise<string | undefined> {
  try {
    return await readFile(file.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !file.explicit) return undefined;
    const message = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a JSON file' : `cannot be read (${code ?? 'error'})`;
    issues.push({ file: file.path, path: '', message });
    return undefined;
  }
}

function parseJson(raw: string, file: string, issues: ConfigIssue[]): unknown {
  const text = raw.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text);
  } catch (e) {
    issues.push({ file, path: '', message: `is not valid JSON: ${jsonProblem((e as Error).message, text)}` });
    return undefined;
  }
}

/**
 * V8's message without the excerpt of the file it may quote (`Unexpected token 's',
 * ..."secret"... is not valid JSON`), with the position as line and column.
 */
function jsonProblem(message: string, text: string): string {
  const position = /at position (\d+)/.exec(message);
  // Everything from the first double quote on may be the file's own text.
  const what = message
    .replace(/ in JSON at position \d+.*$/s, '')
    .split('"')[0]!
    .replace(/[\s,.]+$/, '');
  if (!position) return what;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${what} (line ${line}, column ${column})`;
}
