type Entry = { version: string; value: unknown };

/**
 * The memory analytics keeps values in between requests: one least recently used budget of
 * `maxBytes` (ANALYTICS_CACHE_MB), shared by the caches of each kind of value, so that a
 * process serving mostly /users gives /tokens' days the memory it does not use, and the reverse.
 *
 * Not lru-cache, unlike the project's other caches: with its entries in an lru-cache the process
 * ran three times as many full garbage collections while serving cached days (182 against 64
 * over the same 9,000 requests), which doubled the p99 of a year of /tokens?group_by=model on
 * both engines (bench:analytics). A Map kept in recency order is all a byte budget needs.
 */
export class DayBudget {
  /** Absent when the budget is 0: nothing is kept. */
  private readonly entries: ByteLru | undefined;
  private readonly kinds = new Set<string>();

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? new ByteLru(maxBytes) : undefined;
  }

  /** The one cache of a kind of value: a second cache of a kind would keep the same value twice. */
  cache<V>(kind: string): DayCache<V> {
    if (this.kinds.has(kind)) throw new Error(`a DayCache of ${kind} exists already`);
    this.kinds.add(kind);
    return new DayCache<V>(this.entries, kind);
  }
}

/** Values by key within a budget of bytes, the least recently used leaving first; a value larger than the budget is not kept. */
class ByteLru {
  /** Map order is the recency order, oldest first. */
  private readonly entries = new Map<string, { value: Entry; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: Entry, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}

/**
 * What a reader built from one day's rollups (a /tokens day row serialized, the /users rows of
 * that day), kept while the day keeps the version ingestion last gave it (table
 * analytics_day_version). A day of a past month rarely changes, so a year of rows is read from
 * the database once, not on every request; a batch that touches a day gives it a new version in
 * its own transaction, so every process sees the change on its next read. Least recently used
 * entries of the budget go first once it is full.
 *
 * A reader must read the versions before the rows it keeps under them: then what it keeps is never
 * older than its version (rows committed in between are newer, and come with a newer version).
 */
export class DayCache<V> {
  /** Made by DayBudget.cache, which gives each kind one cache. */
  constructor(
    private readonly entries: ByteLru | undefined,
    private readonly kind: string,
  ) {}

  get(key: string, version: string): V | undefined {
    const e = this.entries?.get(`${this.kind}|${key}`);
    // Only this cache sets entries under its kind, and only values of type V.
    return e === undefined || e.version !== version ? undefined : (e.value as V);
  }

  /** Keeps `value` (or its new size, when a kept value grew) under `key` at `version`; a value larger than the budget is not kept. */
  set(key: string, version: string, value: V, bytes: number): void {
    if (!this.entries) return;
    this.entries.set(`${this.kind}|${key}`, { version, value }, Math.max(1, bytes));
  }
}
