import type { Db } from '../db/db.js';
import type { SecretBox } from './secret-box.js';

/** A column of secrets the service reads back, and the column that names its row. */
export interface SealedColumn {
  table: string;
  id: string;
  column: string;
}

/** The context a column's values are sealed under: a value sealed for one column does not open in another. */
export const contextOf = (c: SealedColumn): string => `${c.table}.${c.column}`;

/**
 * Brings a column's stored values to the box's current form at start: plain ones sealed once a key
 * is set, and ones under an older key sealed again under the first (rotation). A value is replaced
 * only if it is still the one read, so processes starting together do not undo each other. Throws
 * SecretsKeyError when a value is sealed with a key the box does not hold. Returns how many changed.
 */
export async function resealColumn(db: Db, box: SecretBox, c: SealedColumn): Promise<number> {
  const rows = await db.query<{ id: string; value: string }>(`SELECT ${c.id}::text AS id, ${c.column} AS value FROM ${c.table}`);
  let changed = 0;
  for (const r of rows) {
    if (box.current(r.value)) continue;
    const sealed = box.seal(box.open(r.value, contextOf(c)), contextOf(c));
    await db.query(`UPDATE ${c.table} SET ${c.column} = $1 WHERE ${c.id}::text = $2 AND ${c.column} = $3`, [sealed, r.id, r.value]);
    changed++;
  }
  return changed;
}
