import type { Db, Engine, Queryable } from './types.ts';

/** A caller's open transaction as a Db, so functions that may open their own transaction write inside it. */
export function transactionAsDb(tx: Queryable, engine: Engine): Db {
  return {
    engine,
    insideTransaction: true,
    query: (sql, params, options) => tx.query(sql, params, options),
    exec: (sql) => tx.exec(sql),
    copyIn: (table, columns, data) => tx.copyIn(table, columns, data),
    transaction: (fn) => fn(tx),
    listen: () => Promise.reject(new Error('no LISTEN inside a transaction lent as a Db')),
    notify: async (channel, payload) => {
      await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {},
  };
}
