import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createLogger, type Logger } from '../log.ts';
import { copyStatement } from './copy.ts';
import type { Db, Queryable, QueryOptions, QueryResult } from './types.ts';

const INT8_OID = 20;
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

type Client = pg.Pool | pg.PoolClient;

/**
 * Names of prepared statements, one per statement text, shared by a pool's connections (node-postgres
 * prepares a name on each connection the first time it runs there). At most MAX_PREPARED texts are named; past
 * that, statements run unnamed, so no unexpected variety of texts can fill the server's memory.
 */
const MAX_PREPARED = 100;

class StatementNames {
  private readonly names = new Map<string, string>();

  nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_PREPARED) {
      name = `cairn_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      this.names.set(sql, name);
    }
    return name;
  }
}

/**
 * `walks`: the pool of connections that plan without bitmap scans (QueryOptions.bitmapScans), opened on first
 * use; absent in a transaction.
 */
function queryable(client: Client, statements: StatementNames, walks?: () => pg.Pool): Queryable {
  return {
    async query<R>(
      sql: string,
      params: readonly unknown[] = [],
      options?: QueryOptions,
    ): Promise<QueryResult<R>> {
      const name = options?.prepare ? statements.nameOf(sql) : undefined;
      const target = options?.bitmapScans === false && walks ? walks() : client;
      const result =
        name === undefined
          ? await target.query(sql, [...params])
          : await target.query({ name, text: sql, values: [...params] });
      return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async copyIn(table, columns, data) {
      // A pool lends one connection for the COPY; a transaction's client is used as it is.
      const connection = client instanceof pg.Pool ? await client.connect() : client;
      try {
        const stream = connection.query(copyFrom(copyStatement(table, columns, 'STDIN')));
        await pipeline(Readable.from([typeof data === 'string' ? Buffer.from(data) : data]), stream);
      } finally {
        if (connection !== client) (connection as pg.PoolClient).release();
      }
    },
  };
}

/**
 * A transaction's queryable, which refuses statements once the transaction's function has settled: a statement
 * sent after that (a write the function started and did not await) would reach the connection after COMMIT or
 * ROLLBACK, and run outside the transaction on a connection the pool may have lent to another caller. PGlite's
 * transactions refuse them likewise.
 */
function transactionQueryable(client: pg.PoolClient, statements: StatementNames) {
  const inner = queryable(client, statements);
  let ended = false;
  const open = () => {
    if (ended) throw new Error('this transaction has ended: a statement was sent after its function settled');
  };
  const tx: Queryable = {
    query: async (sql, params, options) => {
      open();
      return inner.query(sql, params, options);
    },
    exec: async (sql) => {
      open();
      return inner.exec(sql);
    },
    copyIn: async (table, columns, data) => {
      open();
      return inner.copyIn(table, columns, data);
    },
  };
  return { tx, end: () => (ended = true) };
}

/** Where a connection string points, without its password, for log lines. */
function serverName(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** One LISTEN connection per process, re-established (and said so in the log) when the server drops it. */
class Listener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  /** Set while the connection is lost: the next successful connect says it is back. */
  private lostSince: number | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client, undefined));
      await client.connect();
      for (const channel of this.handlers.keys())
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      this.connecting = undefined;
      if (this.lostSince !== undefined) {
        this.log.info(
          {
            server: serverName(this.connectionString),
            channels: [...this.handlers.keys()],
            downMs: Date.now() - this.lostSince,
          },
          'PostgreSQL LISTEN connection re-established; notifications sent while it was down were missed',
        );
        this.lostSince = undefined;
      }
      return client;
    })();
    return this.connecting;
  }

  /** The LISTEN connection failed or ended: log it once, reconnect in a second. */
  private lost(client: pg.Client, error: Error | undefined) {
    // Only the established connection counts: a failed attempt is the connect promise's rejection.
    if (this.closed || client !== this.client) return;
    if (this.lostSince === undefined) {
      this.lostSince = Date.now();
      this.log.warn(
        { err: error, server: serverName(this.connectionString), channels: [...this.handlers.keys()] },
        'PostgreSQL LISTEN connection lost; cache invalidations from other processes wait until it is back (retrying every second)',
      );
    }
    this.reconnectLater();
  }

  private reconnectLater() {
    this.client = undefined;
    this.connecting = undefined;
    if (this.closed) return;
    setTimeout(() => void this.connect().catch((error: unknown) => this.retryFailed(error)), 1000).unref();
  }

  private retryFailed(error: unknown) {
    this.log.debug(
      { err: error, server: serverName(this.connectionString) },
      'PostgreSQL LISTEN reconnect failed',
    );
    this.reconnectLater();
  }

  async add(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    const fresh = !this.handlers.has(channel);
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler);
    this.handlers.set(channel, set);
    const client = await this.connect();
    if (fresh) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return async () => {
      set.delete(handler);
    };
  }

  async close() {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    // Closing: a connection that fails to end cleanly is gone either way.
    if (client)
      await client
        .end()
        .catch((error: unknown) => this.log.debug({ err: error }, 'LISTEN connection end failed'));
  }
}

export function openPostgres(connectionString: string, options: { max?: number; log?: Logger } = {}): Db {
  const log = options.log ?? createLogger('warn');
  const server = serverName(connectionString);
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client's error (server restart) must not crash the process; the pool drops that client and
  // the next query opens a new connection.
  const onIdleError = (error: Error) =>
    log.warn(
      { err: error, server },
      'PostgreSQL: an idle pooled connection failed; it is replaced on next use',
    );
  pool.on('error', onIdleError);
  const statements = new StatementNames();
  const listener = new Listener(connectionString, log);
  // Walks are a few kinds of search: half the pool's connections serve them.
  let walkPool: pg.Pool | undefined;
  const walks = () => {
    if (!walkPool) {
      walkPool = new pg.Pool({
        connectionString,
        max: Math.max(1, Math.ceil((options.max ?? 10) / 2)),
        options: '-c enable_bitmapscan=off -c max_parallel_workers_per_gather=0',
      });
      walkPool.on('error', onIdleError);
    }
    return walkPool;
  };
  return {
    engine: 'postgres',
    ...queryable(pool, statements, walks),
    async transaction(fn) {
      const client = await pool.connect();
      // While checked out, the pool does not listen for the client's errors: a connection the server ends
      // between two queries would be an uncaught exception. The next query on it fails, and the catch
      // below discards it.
      const onError = (error: Error) =>
        log.warn({ err: error, server }, 'PostgreSQL: a connection in a transaction failed');
      client.on('error', onError);
      let result: Awaited<ReturnType<typeof fn>>;
      const { tx, end } = transactionQueryable(client, statements);
      try {
        await client.query('BEGIN');
        result = await fn(tx).finally(end);
        await client.query('COMMIT');
      } catch (error) {
        try {
          await client.query('ROLLBACK');
          client.off('error', onError);
          client.release();
        } catch (rollbackError) {
          // The connection is broken: release it with the error, so the pool destroys it.
          log.warn(
            { err: rollbackError, server },
            'PostgreSQL: ROLLBACK failed; the connection is discarded',
          );
          client.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw error;
      }
      client.off('error', onError);
      client.release();
      return result;
    },
    listen: (channel, onMessage) => listener.add(channel, onMessage),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener.close();
      await Promise.all([pool.end(), walkPool?.end()]);
    },
  };
}
