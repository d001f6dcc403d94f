import type { Queryable } from './db.js';

/**
 * A transaction's statements, each remembered, so that the transaction can send its COMMIT
 * without waiting for the ones `fn` left running and still learn whether they all succeeded.
 * A statement that failed leaves the transaction aborted, and the server then ends it with a
 * rollback whatever COMMIT asks: `failure()` gives its error to report.
 */
export function trackStatements(q: Queryable): { tx: Queryable; failure(): Promise<unknown> } {
  const sent: Promise<unknown>[] = [];
  const track = <T>(p: Promise<T>): Promise<T> => {
    sent.push(p);
    // Reported by failure() or by whoever awaits it; never an unhandled rejection.
    p.catch(() => undefined);
    return p;
  };
  return {
    tx: {
      query: (sql, params) => track(q.query(sql, params)),
      exec: (sql) => track(q.exec(sql)),
    },
    async failure() {
      for (const r of await Promise.allSettled(sent)) if (r.status === 'rejected') return r.reason ?? new Error('statement failed');
      return undefined;
    },
  };
}
