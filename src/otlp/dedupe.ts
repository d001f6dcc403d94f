import type { Increment } from '../analytics/rollups.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { Db } from '../core/db/db.js';
import type { TelemetryEvent } from '../events/event.js';
import type { Collected, Rejections } from './collect.js';
import type { PreUpgrade } from './pre-upgrade.js';
import { seenGroupsStore } from './seen-groups-store.js';
import { seenStore } from './seen-store.js';

/** The reason to give for grouped records past a full group. */
export interface Groups {
  full: string;
  rejections: Rejections;
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Counts the events of the records not seen before, in one transaction (the caller's when it
 * has one): their keys are recorded as seen, their events and increments go to the rollups.
 * An entry's key is the record's id hash, the part of its id before `#` (a prompt's slash command
 * is `<id>#slash`); a Droid session's event has its own. A record of a group (a delta point's
 * collection, a Claude Code session's minute) is recorded in its group's row (otlp_seen_groups),
 * any other in otlp_seen. Of entries sharing an id, the last counts; of a counter's, the largest
 * (as when each unit was an event `<id>#<i>`: the most any of them made). `once`: what counts
 * without a key (the steps of cumulative streams, which their streams' state keeps from counting
 * twice). Returns how many events were counted, an increment as its events (tokens: one request).
 */
export async function countNew(
  db: Db,
  preUpgrade: PreUpgrade,
  analytics: AnalyticsService,
  orgId: string,
  collected: Collected,
  groups?: Groups,
  once?: Collected,
): Promise<number> {
  const { ids, keys: keyOf, groups: groupOf } = collected;
  const keys = new Set<string>();
  const members = new Map<string, Set<string>>();
  let grouped = 0;
  // Entries sharing an id share its key: only when some key comes again can ids repeat.
  let repeated = false;
  for (let i = 0; i < collected.length; i++) {
    const key = keyOf[i] as string;
    const of = groupOf[i];
    if (of === undefined) {
      if (keys.has(key)) repeated = true;
      else keys.add(key);
    } else {
      let group = members.get(of.group);
      if (group === undefined) members.set(of.group, (group = new Set()));
      if (group.has(key)) repeated = true;
      else {
        group.add(key);
        grouped++;
      }
    }
  }
  if (collected.length === 0 && (once?.length ?? 0) === 0) return 0;
  // The last of each id, where its first was.
  const unique = repeated ? [...new Map(ids.map((id, i) => [id, i])).values()] : undefined;
  const cutoff = members.size > 0 ? (await preUpgrade.of(orgId)).cutoff : null;
  return db.transaction(async () => {
    // Sorted: concurrent exports sharing keys or groups wait on each other in one order, never in a cycle.
    const sorted = new Map([...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([g, k]) => [g, [...k]]));
    const inGroups = await seenGroupsStore.insertNew(db, orgId, sorted);
    if (inGroups.overflow.length > 0) groups?.rejections.add(groups.full, inGroups.overflow.length);
    const before = cutoff === null ? EMPTY : await seenGroupsStore.seenBefore(db, orgId, withTimes(collected, inGroups.fresh), cutoff);
    const fresh = keys.size > 0 ? await seenStore.insertNew(db, orgId, [...keys].sort()) : null;
    // Usually every record is new: then every entry counts.
    const all = fresh === null && before.size === 0 && inGroups.fresh.size === grouped;
    const counts = (i: number) => {
      const key = keyOf[i] as string;
      if (groupOf[i] !== undefined) return inGroups.fresh.has(key) && !before.has(key);
      return fresh === null || fresh.has(key);
    };
    let events = collected.events;
    let increments = collected.increments;
    if (!all || unique !== undefined) {
      events = [];
      increments = [];
      const largest = unique === undefined ? undefined : largestCounts(collected);
      for (const i of unique ?? collected.items.keys()) {
        if (!counts(i)) continue;
        const item = collected.items[i] as TelemetryEvent | Increment;
        if (!('counter' in item)) events.push(item);
        else {
          const most = largest?.get(ids[i] as string) ?? item.amount;
          increments.push(most > item.amount ? { ...item, amount: most } : item);
        }
      }
    }
    if (once !== undefined) {
      events = events.concat(once.events);
      increments = increments.concat(once.increments);
    }
    let counted = events.length;
    for (const c of increments) counted += c.counter === 'tokens' ? 1 : c.amount;
    if (counted > 0) await analytics.recordBatch(orgId, events, increments);
    return counted;
  });
}

/** The largest amount of each id's counter increments (tokens are not counters: their last counts). */
function largestCounts(collected: Collected): Map<string, number> {
  const largest = new Map<string, number>();
  collected.items.forEach((item, i) => {
    if (!('counter' in item) || item.counter === 'tokens') return;
    const id = collected.ids[i] as string;
    if (item.amount > (largest.get(id) ?? 0)) largest.set(id, item.amount);
  });
  return largest;
}

/** These grouped records' keys with their times. */
function withTimes(collected: Collected, keys: ReadonlySet<string>): { key: string; ms: number }[] {
  const times = new Map<string, number>();
  collected.groups.forEach((g, i) => g !== undefined && times.set(collected.keys[i] as string, g.ms));
  return [...keys].map((key) => ({ key, ms: times.get(key) ?? 0 }));
}
