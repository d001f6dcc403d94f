import { isDeepStrictEqual } from 'node:util';
import { CliError } from '../../core/cli/cli-error.js';
import type { Doc, Format } from './files.js';

/** A key connect owns in a file: its path from the top and the value it writes. */
export interface Setting {
  path: string[];
  value: unknown;
}

/** A hook entry, in Claude Code's format (`hooks.EVENT: [{matcher?, hooks: [{type: "command", command}]}]`). */
interface Hook {
  event: string;
  matcher?: string;
  command: string;
}

/** What connect writes in one file. */
export interface Edit {
  file: string;
  format: Format;
  settings: Setting[];
  hooks: Hook[];
}

/**
 * What connect found in a file before it first wrote there, kept in orgctl's own configuration
 * (record.ts): per owned key whether it existed and its value then, and the value connect wrote;
 * per object connect had to create (`telemetry`, `hooks`, `hooks.BeforeAgent`), whether it
 * existed. `--remove` puts each key back as it was (unless the person changed it since), and
 * removes the objects it created once they are empty; a file it created goes when it is empty.
 */
export interface FileRecord {
  created: boolean;
  keys: Record<string, { had: boolean; value?: unknown; wrote: unknown }>;
  containers: Record<string, boolean>;
}

export const emptyRecord = (created: boolean): FileRecord => ({ created, keys: {}, containers: {} });

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (p: readonly string[]) => JSON.stringify(p);

function get(doc: Doc, p: readonly string[]): unknown {
  let at: unknown = doc;
  for (const part of p) {
    if (!isObject(at)) return undefined;
    at = at[part];
  }
  return at;
}

/** The object at p, created (and its existence before recorded) where missing; an existing non-object is an error. */
function container(doc: Doc, p: readonly string[], record: FileRecord, file: string): Doc {
  let at = doc;
  for (let i = 0; i < p.length; i++) {
    const part = p[i] as string;
    const key = keyOf(p.slice(0, i + 1));
    if (!(key in record.containers)) record.containers[key] = at[part] !== undefined;
    if (at[part] === undefined) at[part] = {};
    const next = at[part];
    if (!isObject(next)) throw new CliError(`${file}: ${p.slice(0, i + 1).join('.')} is not an object; fix it and run again. Nothing was changed.`);
    at = next;
  }
  return at;
}

function setAt(doc: Doc, p: readonly string[], value: unknown, record: FileRecord, file: string): void {
  container(doc, p.slice(0, -1), record, file)[p[p.length - 1] as string] = structuredClone(value);
}

function deleteAt(doc: Doc, p: readonly string[]): void {
  const parent = get(doc, p.slice(0, -1));
  if (isObject(parent)) delete parent[p[p.length - 1] as string];
}

type Group = { matcher?: string; hooks?: { type?: string; command?: string }[] };

/** The guard event of a hook command connect wrote for this client (`… guard EVENT --client CLIENT …`), else undefined. */
const ownEvent = (command: unknown, client: string): string | undefined =>
  typeof command === 'string' ? new RegExp(` guard ([a-z-]+) --client ${client}(\\s|$)`).exec(command)?.[1] : undefined;

function groupsAt(doc: Doc, event: string, file: string): Group[] | undefined {
  const list = get(doc, ['hooks', event]);
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) throw new CliError(`${file}: hooks.${event} is not a list; fix it and run again. Nothing was changed.`);
  return list as Group[];
}

const hasCommand = (groups: readonly Group[] | undefined, command: string) => (groups ?? []).some((g) => (g.hooks ?? []).some((h) => h.command === command));

/**
 * Drops this client's hook entries from a list of groups (only those running guard `event` when
 * given: Droid's SessionStart holds two, `session-start` and `repository`), and the groups they leave empty.
 */
function withoutOwn(groups: Group[], client: string, event?: string): Group[] {
  const own = (command: unknown) => {
    const e = ownEvent(command, client);
    return e !== undefined && (event === undefined || e === event);
  };
  return groups.flatMap((g) => {
    if (!Array.isArray(g.hooks) || !g.hooks.some((h) => own(h.command))) return [g];
    const hooks = g.hooks.filter((h) => !own(h.command));
    return hooks.length === 0 ? [] : [{ ...g, hooks }];
  });
}

/** The document with connect's keys and hooks in it; `record` gains what it did not know yet. */
export function apply(before: Doc, edit: Edit, client: string, record: FileRecord): Doc {
  const doc = structuredClone(before);
  for (const s of edit.settings) {
    const key = keyOf(s.path);
    const current = get(doc, s.path);
    const known = record.keys[key];
    record.keys[key] = known
      ? { ...known, wrote: s.value }
      : { had: current !== undefined, ...(current !== undefined ? { value: current } : {}), wrote: s.value };
    setAt(doc, s.path, s.value, record, edit.file);
  }
  for (const h of edit.hooks) {
    const groups = groupsAt(doc, h.event, edit.file);
    if (hasCommand(groups, h.command)) continue;
    const hooks = container(doc, ['hooks'], record, edit.file);
    if (!(keyOf(['hooks', h.event]) in record.containers)) record.containers[keyOf(['hooks', h.event])] = groups !== undefined;
    hooks[h.event] = [
      ...withoutOwn(groups ?? [], client, ownEvent(h.command, client)),
      { ...(h.matcher !== undefined ? { matcher: h.matcher } : {}), hooks: [{ type: 'command', command: h.command }] },
    ];
  }
  return doc;
}

const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

/**
 * The document without what connect wrote: each owned key back to what it was (when it still
 * holds what connect wrote; without a record, a key holding the value connect would write goes),
 * this client's hook entries out, and the objects connect created gone once empty.
 */
export function remove(before: Doc, edit: Edit, client: string, record: FileRecord | undefined): Doc {
  const doc = structuredClone(before);
  for (const s of [...edit.settings].sort((a, b) => b.path.length - a.path.length)) {
    const known = record?.keys[keyOf(s.path)];
    const current = get(doc, s.path);
    if (!isDeepStrictEqual(current, known ? known.wrote : s.value)) continue;
    if (known?.had) setAt(doc, s.path, known.value, emptyRecord(false), edit.file);
    else deleteAt(doc, s.path);
  }
  for (const event of new Set(edit.hooks.map((h) => h.event))) {
    const groups = groupsAt(doc, event, edit.file);
    if (groups) (get(doc, ['hooks']) as Doc)[event] = withoutOwn(groups, client);
  }
  const created = [
    ...edit.settings.flatMap((s) => s.path.slice(0, -1).map((_, i) => s.path.slice(0, i + 1))),
    ...edit.hooks.flatMap((h) => [['hooks', h.event], ['hooks']]),
  ].sort((a, b) => b.length - a.length);
  for (const p of created) {
    const had = record ? record.containers[keyOf(p)] : false;
    if (had === false && isEmpty(get(doc, p))) deleteAt(doc, p);
  }
  return doc;
}

/** How much of an edit a document holds: all of it, some, or none. */
export function state(doc: Doc, edit: Edit): 'connected' | 'partly' | 'not connected' {
  const checks = [
    ...edit.settings.map((s) => isDeepStrictEqual(get(doc, s.path), s.value)),
    ...edit.hooks.map((h) => {
      try {
        return hasCommand(groupsAt(doc, h.event, edit.file), h.command);
      } catch {
        return false;
      }
    }),
  ];
  if (checks.every(Boolean)) return 'connected';
  return checks.some(Boolean) ? 'partly' : 'not connected';
}
