import { availableParallelism } from 'node:os';
import { ConfigError } from '@cairn/kit';

/** The data plane's settings, read once from the environment (docs/configuration.md lists them). */
export interface ProxyConfig {
  /** Request body bytes the WAF inspects at most (the rest streams through uninspected). */
  bodyLimit: number;
  /**
   * multipart/form-data body bytes held at most, so that file contents need not count toward
   * `bodyLimit` (the fields and part headers still do); a larger body is truncated.
   */
  multipartLimit: number;
  /** Bytes of multipart bodies held whole at once per process; past it a body is inspected as any other. */
  multipartMemory: number;
  /** How long a zone's compiled plan is trusted without a change notification. */
  planTtlMs: number;
  /** Milliseconds of CRS evaluation per request before it is refused (fail closed, 503-free: blocked). */
  wafTimeBudgetMs: number;
  /** Loaded CRS engines kept (one per paranoia level and rule override set), in each thread. */
  crsEngines: number;
  /** Worker threads evaluating the CRS of expensive requests (0: all on the event loop). */
  wafWorkers: number;
  /** Inspected bytes (body + request target + headers) from which the CRS runs on a worker. */
  wafPoolThreshold: number;
  /** Requests waiting for a CRS worker at most; more are refused (fail closed). */
  wafPoolQueue: number;
  originConnectTimeoutMs: number;
  /** Origin response headers must arrive within this (else 504). */
  originTimeoutMs: number;
  /** Idle time allowed between body chunks from the origin. */
  originBodyTimeoutMs: number;
  /** Connections per origin. */
  originConnections: number;
  eventsLogSampleRate: number;
  /** Requests with events stored in full per zone and second (per process) before sampling starts. */
  eventsSampleAfter: number;
  eventsRetentionDays: number;
  /** Seconds between runs of the events' retention job (once across all processes). */
  eventsPruneEverySeconds: number;
  eventsMaxRows: number;
  shutdownGraceMs: number;
  /** A client must send the whole request head within this (else 408 and the connection closes). */
  headersTimeoutMs: number;
  /** A client must send the whole request, body included, within this (else 408). */
  requestTimeoutMs: number;
  /** Open client connections per address at most; more are closed at once. */
  connectionsPerAddress: number;
}

type Source = Record<string, string | undefined>;

function int(env: Source, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  return Number(raw);
}

function rate(env: Source, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || n < 0 || n > 1)
    throw new ConfigError(name, `expected a number from 0 to 1, got "${raw}"`);
  return n;
}

export function loadProxyConfig(env: Source = process.env): Readonly<ProxyConfig> {
  return Object.freeze({
    bodyLimit: int(env, 'EDGE_WAF_BODY_LIMIT', 131_072, 0, 16_777_216),
    // ModSecurity's SecRequestBodyLimit in the Debian modsecurity.conf: 12.5 MiB
    multipartLimit: int(env, 'EDGE_WAF_MULTIPART_LIMIT', 13_107_200, 0, 1_073_741_824),
    multipartMemory: int(env, 'EDGE_WAF_MULTIPART_MEMORY', 268_435_456, 0, 68_719_476_736),
    planTtlMs: int(env, 'EDGE_PLAN_TTL_MS', 10_000, 0, 3_600_000),
    wafTimeBudgetMs: int(env, 'EDGE_WAF_TIME_BUDGET_MS', 100, 1, 60_000),
    crsEngines: int(env, 'EDGE_CRS_ENGINES', 8, 1, 64),
    wafWorkers: int(env, 'EDGE_WAF_WORKERS', defaultWafWorkers(env), 0, 256),
    wafPoolThreshold: int(env, 'EDGE_WAF_POOL_THRESHOLD', 4096, 0, 1_073_741_824),
    wafPoolQueue: int(env, 'EDGE_WAF_POOL_QUEUE', 64, 0, 100_000),
    originConnectTimeoutMs: int(env, 'EDGE_ORIGIN_CONNECT_TIMEOUT_MS', 5_000, 1, 600_000),
    originTimeoutMs: int(env, 'EDGE_ORIGIN_TIMEOUT_MS', 30_000, 1, 3_600_000),
    originBodyTimeoutMs: int(env, 'EDGE_ORIGIN_BODY_TIMEOUT_MS', 30_000, 1, 3_600_000),
    originConnections: int(env, 'EDGE_ORIGIN_CONNECTIONS', 128, 1, 10_000),
    eventsLogSampleRate: rate(env, 'EDGE_EVENTS_LOG_SAMPLE_RATE', 1),
    eventsSampleAfter: int(env, 'EDGE_EVENTS_SAMPLE_AFTER', 20, 1, 1_000_000),
    eventsRetentionDays: int(env, 'EDGE_EVENTS_RETENTION_DAYS', 30, 1, 3650),
    eventsPruneEverySeconds: int(env, 'EDGE_EVENTS_PRUNE_EVERY_S', 3600, 1, 86_400),
    eventsMaxRows: int(env, 'EDGE_EVENTS_MAX_ROWS', 1_000_000, 1000, 1_000_000_000),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    ...clientTimeouts(env),
    connectionsPerAddress: int(env, 'EDGE_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
  });
}

/**
 * One CRS worker thread per core but one, shared out among the CAIRN_WORKERS processes (each has its
 * own pool), and at least one per process: the event loops keep a core between them.
 */
function defaultWafWorkers(env: Source): number {
  const cores = availableParallelism();
  const raw = env.CAIRN_WORKERS;
  const processes = raw && /^\d+$/.test(raw) ? Math.max(1, Number(raw)) : raw === 'auto' ? cores : 1;
  return Math.max(1, Math.floor((cores - 1) / processes));
}

function clientTimeouts(env: Source): Pick<ProxyConfig, 'headersTimeoutMs' | 'requestTimeoutMs'> {
  const headersTimeoutMs = int(env, 'EDGE_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = int(env, 'EDGE_REQUEST_TIMEOUT_MS', 300_000, 100, 3_600_000);
  // node:http refuses a request timeout shorter than the headers timeout
  if (requestTimeoutMs < headersTimeoutMs)
    throw new ConfigError(
      'EDGE_REQUEST_TIMEOUT_MS',
      `must be at least EDGE_HEADERS_TIMEOUT_MS (${headersTimeoutMs}), got "${requestTimeoutMs}"`,
    );
  return { headersTimeoutMs, requestTimeoutMs };
}
