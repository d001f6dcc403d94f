import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { CliError } from '../../core/cli/cli-error.js';

/** The formats of the files connect edits: JSON settings, Codex's TOML, and a dotenv file (Gemini CLI's `.env`). */
export type Format = 'json' | 'toml' | 'dotenv';

export type Doc = Record<string, unknown>;

/** A settings file as read: its text (undefined when it does not exist) and its content. */
export interface Loaded {
  file: string;
  format: Format;
  text: string | undefined;
  doc: Doc;
}

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads and parses a settings file; a malformed one is a clear error and is not touched. */
export function load(file: string, format: Format): Loaded {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined || text.trim() === '') return { file, format, text, doc: {} };
  let doc: unknown;
  try {
    doc = format === 'json' ? JSON.parse(text) : format === 'toml' ? parseToml(text) : parseDotenv(text);
  } catch (e) {
    throw new CliError(
      `${file} is not valid ${format === 'json' ? 'JSON' : format === 'toml' ? 'TOML' : 'dotenv'} (${(e as Error).message}); fix it and run again. Nothing was changed.`,
    );
  }
  if (!isObject(doc)) throw new CliError(`${file} does not hold a ${format === 'json' ? 'JSON object' : 'table'}; fix it and run again. Nothing was changed.`);
  return { file, format, text, doc };
}

/** The text of a document in its format; a dotenv file keeps its other lines and comments. */
export function render(loaded: Loaded, doc: Doc): string {
  if (loaded.format === 'json') return `${JSON.stringify(doc, null, 2)}\n`;
  if (loaded.format === 'toml') return `${stringifyToml(doc)}\n`;
  return renderDotenv(loaded.text ?? '', doc as Record<string, string>);
}

/**
 * Writes the new text, the file as it was first copied beside it (`<file>.orgctl-backup`, the
 * newest only). A document that became empty in a file connect created is removed instead.
 */
export function save(loaded: Loaded, doc: Doc, removeWhenEmpty: boolean): 'written' | 'removed' {
  if (loaded.text !== undefined) copyFileSync(loaded.file, `${loaded.file}.orgctl-backup`);
  if (removeWhenEmpty && Object.keys(doc).length === 0) {
    rmSync(loaded.file, { force: true });
    return 'removed';
  }
  mkdirSync(path.dirname(loaded.file), { recursive: true });
  // A settings file holds the person's key: readable by its owner only when connect creates it.
  writeFileSync(loaded.file, render(loaded, doc), loaded.text === undefined ? { mode: 0o600 } : {});
  return 'written';
}

const DOTENV_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

function parseDotenv(text: string): Doc {
  const doc: Doc = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = DOTENV_LINE.exec(line);
    if (!m) throw new Error(`cannot read the line ${JSON.stringify(line.slice(0, 60))}`);
    doc[m[1] as string] = unquote((m[2] as string).trim());
  }
  return doc;
}

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.endsWith(v[0])) {
    const inner = v.slice(1, -1);
    return v[0] === '"' ? inner.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c)) : inner;
  }
  return v.replace(/\s+#.*$/, '');
}

const quote = (v: string) => (/^[A-Za-z0-9_./:@-]*$/.test(v) ? v : `"${v.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`);

/** The original lines with the changed keys replaced in place, removed keys dropped and new keys appended. */
function renderDotenv(original: string, doc: Record<string, string>): string {
  const before = original === '' ? {} : (parseDotenv(original) as Record<string, string>);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of original === '' ? [] : original.replace(/\n$/, '').split(/\r?\n/)) {
    const m = DOTENV_LINE.exec(line);
    const key = m?.[1];
    if (key === undefined || line.trim().startsWith('#')) {
      out.push(line);
      continue;
    }
    if (!(key in doc) || seen.has(key)) continue;
    seen.add(key);
    out.push(doc[key] === before[key] ? line : `${key}=${quote(doc[key] as string)}`);
  }
  for (const [key, value] of Object.entries(doc)) if (!seen.has(key)) out.push(`${key}=${quote(value)}`);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
