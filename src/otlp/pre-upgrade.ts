import { LRUCache } from 'lru-cache';
import type { Db } from '../core/db/db.js';
import { seenGroupsStore } from './seen-groups-store.js';
import { streamsStore } from './streams-store.js';

/**
 * What an organization kept from before an upgrade: its upgradeCutoff (seen-groups-store.ts,
 * migration 0052), and whether it has stream states from before migration 0055 (streams-store.ts).
 */
export interface Leftovers {
  cutoff: number | null;
  streamsBefore: boolean;
}

/**
 * The pre-upgrade reader: what each organization kept from before migrations 0052 and 0055, read
 * once (outside any transaction) and then kept, since only those migrations wrote it. Grouped
 * records older than the cutoff are looked up in otlp_seen (dedupe.ts), streams new to their sets
 * in the states kept before 0055 (cumulative.ts).
 */
export class PreUpgrade {
  private readonly kept = new LRUCache<string, Leftovers>({ max: 10_000 });

  constructor(private readonly db: Db) {}

  async of(orgId: string): Promise<Leftovers> {
    const kept = this.kept.get(orgId);
    if (kept !== undefined) return kept;
    const [cutoff, streamsBefore] = await Promise.all([seenGroupsStore.upgradeCutoff(this.db, orgId), streamsStore.anyBefore(this.db, orgId)]);
    const read = { cutoff, streamsBefore };
    this.kept.set(orgId, read);
    return read;
  }
}
