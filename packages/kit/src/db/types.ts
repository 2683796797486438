export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each server connection (PostgreSQL; PGlite ignores it): parsed once, and
   * planned once when PostgreSQL's plan cache finds its generic plan as good as the per-call ones. For hot
   * statements whose text comes from a small set of shapes, values always passed as parameters.
   */
  prepare?: boolean;
  /**
   * false: plan the statement without bitmap scans or parallel workers, for a nearest-first walk of an index
   * under a LIMIT, which PostgreSQL's row estimates (a constant 0.001 for a point in a box) would otherwise have
   * it read whole and sort (a bitmap scan; or the walks of places_open_kinds run by parallel workers, each read
   * to the end: 4,900 buffers for Shanghai at 10M places instead of 190). PostgreSQL runs it on connections
   * opened with `enable_bitmapscan` off and `max_parallel_workers_per_gather` 0; PGlite (small data) and a
   * transaction's queries ignore it.
   */
  bitmapScans?: boolean;
}

/** What a store needs: parameterised queries, and multi-statement text for migrations. */
export interface Queryable {
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<R>>;
  exec(sql: string): Promise<void>;
  /**
   * Bulk load: `COPY table (columns) FROM STDIN` of `data` in COPY's text format (a line a row, tab-separated,
   * `\N` for null, backslash escapes; see copyField), as UTF-8 bytes or text. Several times cheaper for the server than INSERT of the same
   * rows; it inserts only (a duplicate key fails the statement). Table and column names come from code.
   */
  copyIn(table: string, columns: readonly string[], data: Uint8Array | string): Promise<void>;
}

export type Engine = 'pglite' | 'postgres';

export interface Db extends Queryable {
  readonly engine: Engine;
  /**
   * Set when this is a caller's open transaction lent as a Db (transactionAsDb): one connection, transaction()
   * runs inside it, and what can't run in a transaction (VACUUM) or needs a connection of its own is not done.
   */
  readonly insideTransaction?: true;
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; returns a function that stops listening. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}
