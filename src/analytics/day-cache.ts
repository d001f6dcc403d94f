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
  private readonly entries = new Map<string, { version: string; value: V; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined || e.version !== version) return undefined;
    // Map order is the recency order: move the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Keeps `value` (or its new size, when a kept value grew) under `key` at `version`. */
  set(key: string, version: string, value: V, bytes: number): void {
    this.remove(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { version, value, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string) {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}
