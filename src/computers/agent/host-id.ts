import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The machine's stable host id, kept in `file`; made once, on the first start. */
export function loadHostId(file: string): string {
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (UUID.test(id)) return id.toLowerCase();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const id = randomUUID();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
