/** A small map whose entries turn stale after their time to live; the oldest go first when it is full. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; freshUntil: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value and whether it is still fresh; undefined when absent or stale for longer than `maxStaleMs`. */
  get(key: string, maxStaleMs = 0): { value: V; fresh: boolean } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.freshUntil + maxStaleMs <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value, fresh: now < entry.freshUntil };
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) {
      this.entries.delete(key);
      return;
    }
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, freshUntil: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }
}
