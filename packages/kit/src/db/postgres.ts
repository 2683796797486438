import { createHash } from 'node:crypto';
import pg from 'pg';
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

function queryable(client: Client, statements: StatementNames): Queryable {
  return {
    async query<R>(
      sql: string,
      params: readonly unknown[] = [],
      options?: QueryOptions,
    ): Promise<QueryResult<R>> {
      const name = options?.prepare ? statements.nameOf(sql) : undefined;
      const result =
        name === undefined
          ? await client.query(sql, [...params])
          : await client.query({ name, text: sql, values: [...params] });
      return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/** One LISTEN connection per process, re-established when the server drops it. */
class Listener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly connectionString: string) {}

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => this.reconnectLater());
      client.on('end', () => this.reconnectLater());
      await client.connect();
      for (const channel of this.handlers.keys())
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      this.connecting = undefined;
      return client;
    })();
    return this.connecting;
  }

  private reconnectLater() {
    this.client = undefined;
    this.connecting = undefined;
    if (this.closed) return;
    setTimeout(() => void this.connect().catch(() => this.reconnectLater()), 1000).unref();
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
    if (client) await client.end().catch(() => {});
  }
}

export function openPostgres(connectionString: string, options: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const statements = new StatementNames();
  const listener = new Listener(connectionString);
  return {
    engine: 'postgres',
    ...queryable(pool, statements),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(queryable(client, statements));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onMessage) => listener.add(channel, onMessage),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
