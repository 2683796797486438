import { readFileSync } from 'node:fs';

/**
 * Configuration is read once from the environment (and, optionally, a JSON file named by CAIRN_CONFIG whose
 * keys are the same variable names), validated, frozen and passed to the factories that need it.
 */
export interface Config {
  host: string;
  port: number;
  edgePort: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bootstrapServiceKey: string | undefined;
  authCacheTtlMs: number;
  shutdownGraceMs: number;
  /** How long a stopping process answers /readyz with 503 while still serving, before it closes. */
  shutdownDrainMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Source = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(source: Source, name: string, fallback: number, min: number, max: number): number {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function text(source: Source, name: string, fallback: string): string {
  const raw = source[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function optional(source: Source, name: string): string | undefined {
  const raw = source[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function databaseUrl(source: Source): string | undefined {
  const raw = optional(source, 'DATABASE_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'expected a URL like postgres://user@host:5432/dbname');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      'DATABASE_URL',
      `expected a postgres:// or postgresql:// URL, got "${url.protocol}"`,
    );
  }
  return raw;
}

function readFileSource(path: string): Source {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError('CAIRN_CONFIG', `cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('CAIRN_CONFIG', `${path} must hold a JSON object of VARIABLE: value`);
  }
  const source: Source = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw new ConfigError(key, `in ${path}: expected a string, number or boolean`);
    }
    source[key] = String(value);
  }
  return source;
}

export function loadConfig(env: Source = process.env): Readonly<Config> {
  const file = optional(env, 'CAIRN_CONFIG');
  const source: Source = file ? { ...readFileSource(file), ...env } : env;

  const port = integer(source, 'PORT', 8080, 0, 65535);
  const host = text(source, 'HOST', '127.0.0.1');
  const logLevel = text(source, 'LOG_LEVEL', 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const publicUrl = text(source, 'PUBLIC_URL', `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(
      'PUBLIC_URL',
      `expected an absolute URL like https://cairn.example.com, got "${publicUrl}"`,
    );
  }
  const bootstrapServiceKey = optional(source, 'CAIRN_BOOTSTRAP_SERVICE_KEY');
  if (bootstrapServiceKey !== undefined && !/^svk_[A-Za-z0-9_-]{43}$/.test(bootstrapServiceKey)) {
    throw new ConfigError(
      'CAIRN_BOOTSTRAP_SERVICE_KEY',
      'expected "svk_" followed by 43 base64url characters (generate one with: npx cairn keys generate)',
    );
  }

  return Object.freeze({
    host,
    port,
    edgePort: integer(source, 'EDGE_PORT', 8081, 0, 65535),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir: text(source, 'CAIRN_DATA_DIR', './data'),
    databaseUrl: databaseUrl(source),
    logLevel: logLevel as Config['logLevel'],
    bootstrapServiceKey,
    authCacheTtlMs: integer(source, 'AUTH_CACHE_TTL_MS', 1000, 0, 60_000),
    shutdownGraceMs: integer(source, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    shutdownDrainMs: integer(source, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000),
  });
}
