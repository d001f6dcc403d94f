import type { Db } from './db.js';

/**
 * A database that is never opened, for services that are built but never called: the API's
 * description registers every route for its schema and runs none. Any statement fails, saying so.
 */
export function notOpened(engine: Db['engine'] = 'pglite'): Db {
  const refuse = () => Promise.reject(new Error('this database is never opened (the API is only being described)'));
  const write = () => {
    throw new Error('this database is never opened (the API is only being described)');
  };
  return { engine, query: refuse, queryMany: refuse, exec: refuse, write, transaction: refuse, close: async () => {} };
}
