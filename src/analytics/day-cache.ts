import { LRUCache } from 'lru-cache';

type Entry = { version: string; value: unknown };

/**
 * The memory analytics keeps values in between requests: one least recently used budget of
 * `maxBytes` (ANALYTICS_CACHE_MB), shared by the caches of each kind of value, so that a
 * process serving mostly /users gives /tokens' days the memory it does not use, and the reverse.
 */
export class DayBudget {
  /** Absent when the budget is 0: nothing is kept. */
  private readonly entries: LRUCache<string, Entry> | undefined;
  private readonly kinds = new Set<string>();

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes }) : undefined;
  }

  /** The one cache of a kind of value: a second cache of a kind would keep the same value twice. */
  cache<V>(kind: string): DayCache<V> {
    if (this.kinds.has(kind)) throw new Error(`a DayCache of ${kind} exists already`);
    this.kinds.add(kind);
    return new DayCache<V>(this.entries, kind);
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
    private readonly entries: LRUCache<string, Entry> | undefined,
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
    const k = `${this.kind}|${key}`;
    this.entries.delete(k);
    this.entries.set(k, { version, value }, { size: Math.max(1, bytes) });
  }
}
