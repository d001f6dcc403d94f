import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clientConfigPath } from '../api/client-config.js';
import type { FileRecord } from './merge.js';

/**
 * What connect found in each file before it wrote there (merge.ts FileRecord), by the file's
 * absolute path: `connect.json` beside the login (`$XDG_CONFIG_HOME/orgctl/`). JSON settings
 * cannot hold a comment that marks a key as connect's, and a client may refuse keys it does not
 * know, so the mark lives here; hook entries are recognised by their command alone.
 */
export interface Records {
  files: Record<string, FileRecord>;
}

const recordsPath = (env: NodeJS.ProcessEnv): string => path.join(path.dirname(clientConfigPath(env)), 'connect.json');

export function readRecords(env: NodeJS.ProcessEnv): Records {
  try {
    const parsed = JSON.parse(readFileSync(recordsPath(env), 'utf8')) as Partial<Records>;
    return { files: typeof parsed.files === 'object' && parsed.files !== null ? parsed.files : {} };
  } catch {
    return { files: {} };
  }
}

export function writeRecords(env: NodeJS.ProcessEnv, records: Records): void {
  const file = recordsPath(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
}
