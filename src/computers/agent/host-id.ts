import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isUuid } from '../../core/uuid.js';

/** The machine's stable host id, kept in `file`; made once, on the first start. */
export function loadHostId(file: string): string {
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (isUuid(id)) return id.toLowerCase();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const id = randomUUID();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
