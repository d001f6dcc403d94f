import { LRUCache } from 'lru-cache';

/**
 * What a reader built from one day's rollups (a /tokens day row as UTF-8 JSON, the /users rows of
 * that day), kept while the day keeps the version ingestion last gave it (table
 * analytics_day_version). A day of a past month rarely changes, so a year of rows is read from
 * the database once, not on every request; a batch that touches a day gives it a new version in
 * its own transaction, so every process sees the change on its next read. Least recently used
 * entries go first once `maxBytes` is reached.
 *
 * A reader must read the versions before the rows it keeps under them: then what it keeps is never
 * older than its version (rows committed in between are newer, and come with a newer version).
 */
export class DayCache<V = Buffer> {
  /** Absent when the budget is 0: nothing is kept. */
  private readonly entries: LRUCache<string, { version: string; value: V }> | undefined;

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes }) : undefined;
  }

  get(key: string, version: string): V | undefined {
    const e = this.entries?.get(key);
    return e === undefined || e.version !== version ? undefined : e.value;
  }

  /** Keeps `value` (or its new size, when a kept value grew) under `key` at `version`; a value larger than the budget is not kept. */
  set(key: string, version: string, value: V, bytes: number): void {
    if (!this.entries) return;
    this.entries.delete(key);
    this.entries.set(key, { version, value }, { size: Math.max(1, bytes) });
  }
}
