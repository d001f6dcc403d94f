import type postgres from 'postgres';
import { systemClock } from '../clock.js';
import { DbError } from './db.js';
import { NotSentError } from './postgres-statements.js';

/** One connection of the pool, held by a transaction until it calls `release`. */
export interface Lease {
  /** Makes statements on this connection alone. */
  readonly sql: postgres.Sql;
  /**
   * Called once if the connection is lost while held, before postgres.js sends what it still
   * queues for it on a new connection (which would run outside the transaction).
   */
  onLost: (() => void) | undefined;
  /**
   * Gives the connection back. `committed`: its statements were answered; `reusable`: it is out
   * of the transaction (rolled back, or lost); `broken`: its state is unknown, so it is closed
   * and replaced.
   */
  release(outcome: 'committed' | 'reusable' | 'broken'): void;
}

interface Slot {
  sql: postgres.Sql;
  /** Statements outside transactions in flight on it. */
  running: number;
  lease: Lease | undefined;
}

interface Waiter {
  forLease: boolean;
  take: (slot: Slot) => void;
}

/**
 * A pool of `size` connections, each a postgres.js client of its own limited to one connection
 * (made by `open`, which calls `onclose` whenever that connection closes).
 *
 * Not postgres.js's `reserve()`: in 3.4.9 a reserve that waits for a connection is lost when a
 * connection closes meanwhile (porsager/postgres#1195: it never settles), and one whose connection
 * attempt fails stays queued after it was rejected, so the next connection to open is handed to
 * nobody and sits idle on the server for good (a pool connection lost per drop, until every
 * statement waits out DATABASE_TIMEOUT_MS). Here a transaction holds a whole client: it
 * runs ordinary statements (postgres.js allows BEGIN with max 1), which postgres.js fails or sends
 * after reconnecting like any other, and our own queue hands connections out.
 *
 * Statements outside transactions go to a connection no transaction holds, the least busy one
 * (postgres.js pipelines them); when every connection is held they wait, as transactions do, at
 * most `timeoutMs`, then fail as unavailable (57014, answered 503).
 */
export class ConnectionPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Waiter[] = [];
  private typesKnown = false;

  constructor(
    private readonly open: (onclose: () => void) => postgres.Sql,
    size: number,
    private readonly timeoutMs: number | undefined,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.newSlot());
  }

  /** Runs `fn` with a connection no transaction holds. */
  run<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
    const slot = this.free();
    if (slot) return this.use(slot, fn);
    return this.wait(false).then((s) => this.use(s, fn));
  }

  /** A connection for a transaction alone, until it is released. */
  async lease(): Promise<Lease> {
    const slot = this.free() ?? (await this.wait(true));
    const lease: Lease = {
      sql: slot.sql,
      onLost: undefined,
      release: (outcome) => {
        if (slot.lease !== lease) return;
        slot.lease = undefined;
        if (outcome === 'broken') this.replace(slot);
        else if (outcome === 'committed') this.typesFetched();
        this.serve();
      },
    };
    slot.lease = lease;
    return lease;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.sql.end({ timeout: 5 })));
  }

  private newSlot(): Slot {
    const slot: Slot = { sql: undefined as unknown as postgres.Sql, running: 0, lease: undefined };
    slot.sql = this.client(slot);
    return slot;
  }

  private client(slot: Slot): postgres.Sql {
    const sql = this.open(() => {
      // A replaced client's connection closing concerns nobody any more.
      if (slot.sql === sql) slot.lease?.onLost?.();
    });
    if (this.typesKnown) skipTypes(sql);
    return sql;
  }

  /**
   * A statement answered, so its connection fetched the array types first (postgres.js does
   * before anything else on a new connection), into the options every client shares: from now
   * on no connection fetches them. A fetch cut by a lost connection is a rejection postgres.js
   * leaves unhandled (logged by `orgctl serve`); this way only connections made before the
   * first answer can leave one.
   */
  private typesFetched(): void {
    if (this.typesKnown) return;
    this.typesKnown = true;
    for (const s of this.slots) skipTypes(s.sql);
  }

  /** Closes a connection whose state is unknown; the slot gets a new client. */
  private replace(slot: Slot): void {
    const old = slot.sql;
    slot.sql = this.client(slot);
    // Statements of others still on it fail as on a lost connection.
    old.end({ timeout: 0 }).catch(() => undefined);
  }

  private async use<T>(slot: Slot, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
    const sql = slot.sql;
    slot.running++;
    try {
      const result = await fn(sql);
      this.typesFetched();
      return result;
    } catch (e) {
      // A client that never got a connection for the statement (postgres-statements.ts) is not waited on again.
      if (e instanceof NotSentError && slot.sql === sql && !slot.lease) this.replace(slot);
      throw e;
    } finally {
      slot.running--;
    }
  }

  /** A connection no transaction holds, the least busy (there is none while some wait: they are served first). */
  private free(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (s.lease) continue;
      if (!best || s.running < best.running) best = s;
      if (s.running === 0) break;
    }
    return best;
  }

  private wait(forLease: boolean): Promise<Slot> {
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        forLease,
        take: (slot) => {
          timer?.cancel();
          resolve(slot);
        },
      };
      this.waiting.push(waiter);
      const limit = this.timeoutMs;
      // Connections free up in real time, whatever the service's clock says: the system clock's timer.
      const timer =
        limit === undefined
          ? undefined
          : systemClock.timeout(() => {
              this.waiting.splice(this.waiting.indexOf(waiter), 1);
              reject(new DbError(`no database connection was free within ${limit} ms`, '57014', undefined));
            }, limit);
    });
  }

  /** Hands free connections to the waiting, in the order they came. */
  private serve(): void {
    while (this.waiting.length > 0) {
      const waiter = this.waiting[0] as Waiter;
      const slot = this.free();
      if (!slot) return;
      this.waiting.shift();
      if (waiter.forLease) slot.lease = PENDING;
      waiter.take(slot);
    }
  }
}

function skipTypes(sql: postgres.Sql): void {
  (sql.options as { fetch_types: boolean }).fetch_types = false;
}

/** Marks a slot taken by a waiting transaction until its lease is made (in a later microtask). */
const PENDING: Lease = { sql: undefined as unknown as postgres.Sql, onLost: undefined, release: () => undefined };
