/**
 * What a reader built from one day's rollups (a day row as UTF-8 JSON), kept while the day keeps the
 * version ingestion last gave it (table analytics_day_version). A day of a past month rarely
 * changes, so a year of rows is read from the database once, not on every request; a batch
 * that touches a day gives it a new version in its own transaction, so every process sees the
 * change on its next read. Least recently used entries go first once `maxBytes` is reached.
 */
export class DayCache {
  private readonly entries = new Map<string, { version: string; json: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined || e.version !== version) return undefined;
    // Map order is the recency order: move the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.json;
  }

  set(key: string, version: string, json: Buffer): void {
    this.remove(key);
    if (json.length > this.maxBytes) return;
    this.entries.set(key, { version, json });
    this.bytes += json.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string) {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.bytes -= e.json.length;
  }
}
