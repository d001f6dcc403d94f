import { isDeepStrictEqual } from 'node:util';
import { load, render, save, type Doc, type Loaded } from './files.js';
import { apply, emptyRecord, remove, type Edit } from './merge.js';
import type { Records } from './record.js';

/** One file's change: as it is, as it would be, and whether it differs. */
export interface Change {
  edit: Edit;
  loaded: Loaded;
  after: Doc;
  changed: boolean;
}

/**
 * The changes of a client's edits, all read and computed before any is written: a malformed
 * file stops the command with every file untouched. `records` gains what connect learns (connect)
 * or loses the files it undid (--remove).
 */
export function plan(edits: readonly Edit[], client: string, records: Records, undo: boolean): Change[] {
  return edits.map((edit) => {
    const loaded = load(edit.file, edit.format);
    let after: Doc;
    if (undo) {
      after = remove(loaded.doc, edit, client, records.files[edit.file]);
    } else {
      const record = records.files[edit.file] ?? emptyRecord(loaded.text === undefined);
      after = apply(loaded.doc, edit, client, record);
      records.files[edit.file] = record;
    }
    return { edit, loaded, after, changed: !isDeepStrictEqual(after, loaded.doc) };
  });
}

/** Writes the changed files (each with its backup) and says what happened to each. */
export function write(changes: readonly Change[], records: Records, undo: boolean): string[] {
  return changes.map(({ edit, loaded, after, changed }) => {
    const created = records.files[edit.file]?.created === true;
    if (undo) delete records.files[edit.file];
    if (!changed) return `${edit.file}: ${undo ? 'nothing of orgctl in it' : 'already connected'}, unchanged.`;
    const done = save(loaded, after, undo && created);
    const backup = loaded.text !== undefined ? ` (the previous content is in ${edit.file}.orgctl-backup)` : '';
    // TOML is written from its data: the comments of Codex's config.toml are only in the backup.
    const comments = loaded.format === 'toml' && /^\s*#/m.test(loaded.text ?? '') ? ' Its comments were not kept: see the backup.' : '';
    return `${edit.file}: ${done === 'removed' ? 'removed (connect had created it)' : undo ? 'orgctl removed' : 'connected'}${backup}.${comments}`;
  });
}

/** What --print shows: each file as it would be. */
export const preview = (changes: readonly Change[]): string[] =>
  changes.flatMap(({ edit, loaded, after, changed }) => [`# ${edit.file}${changed ? '' : ' (unchanged)'}`, render(loaded, after).trimEnd(), '']);
