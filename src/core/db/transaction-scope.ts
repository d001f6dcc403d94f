import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable, Transaction } from './db.js';

/** One transaction, as the code running in it sees it: its statements, while it is open. */
interface Frame {
  statements: Transaction;
  open: boolean;
}

/**
 * The transaction the calling code runs in, carried in AsyncLocalStorage: inside
 * `db.transaction(fn)` every statement made through the db, by fn or by any service it calls,
 * runs in that transaction, and a transaction begun there joins it. So services compose: one
 * that opens a transaction of its own can be called inside another's and becomes part of it.
 * Work the transaction started but did not await, should it reach the db after the transaction
 * ended, runs outside it like any other statement.
 */
export class TransactionScope {
  private readonly frames = new AsyncLocalStorage<Frame>();

  /** The open transaction the caller runs in, if any. */
  current(): Transaction | undefined {
    const frame = this.frames.getStore();
    return frame?.open ? frame.statements : undefined;
  }

  /** A write (Transaction.write) in the open transaction the caller runs in; throws outside one. */
  write(sql: string, params?: readonly unknown[]): void {
    const tx = this.current();
    if (!tx) throw new Error('db.write outside a transaction: a write is only sent behind a COMMIT, which reports its failure');
    tx.write(sql, params);
  }

  /**
   * Runs fn as the transaction whose statements `q` sends, then commits with `commit`, and
   * returns what fn returns. Every query must have answered when fn settles: one still running
   * could fail after the engine sent COMMIT, and the server would roll back with nobody told. A
   * transaction that leaves one running fails instead (so the engine rolls it back). Writes
   * (db.ts) are the exception: COMMIT is sent at once, behind them, and the transaction fails
   * with the first of them that failed.
   */
  async run<T>(q: Queryable, fn: () => Promise<T>, commit: () => Promise<void>): Promise<T> {
    // How many statements have not answered yet, the writes, and the first write that failed.
    let running = 0;
    const writes: Promise<unknown>[] = [];
    let failed: { error: unknown } | undefined;
    // Each statement is sent at once, in the order it was made; only its answer is counted.
    const counted = <R>(sent: Promise<R>): Promise<R> => {
      running += 1;
      return sent.finally(() => (running -= 1));
    };
    const frame: Frame = {
      open: true,
      statements: {
        query: (sql, params) => counted(q.query(sql, params)),
        exec: (sql) => counted(q.exec(sql)),
        write: (sql, params) => {
          const sent = q.query(sql, params);
          writes.push(sent);
          sent.catch((error: unknown) => (failed ??= { error }));
        },
      },
    };
    try {
      const result = await this.frames.run(frame, fn);
      if (running > 0) throw new Error(`${running} statement(s) of a transaction were still running when it ended: await every statement`);
      frame.open = false;
      const committed = commit();
      // Awaited below, once the writes answered; should one fail first, this has nobody waiting.
      committed.catch(() => undefined);
      await Promise.all(writes);
      await committed;
      return result;
    } catch (e) {
      // A statement made after a failed write fails only because the transaction is aborted.
      throw failed ? failed.error : e;
    } finally {
      frame.open = false;
    }
  }
}
