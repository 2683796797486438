import { Pool } from 'undici';
import type { ProxyConfig } from './config.ts';

/** One undici Pool per origin, kept for the life of the proxy (keep-alive connections are reused). */
export class Origins {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly config: Readonly<ProxyConfig>) {}

  pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.config.originConnections,
        pipelining: 1,
        connect: { timeout: this.config.originConnectTimeoutMs },
        headersTimeout: this.config.originTimeoutMs,
        bodyTimeout: this.config.originBodyTimeoutMs,
        keepAliveTimeout: 4_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close().catch(() => p.destroy())));
  }
}
