import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './types.ts';

/**
 * PostgreSQL when DATABASE_URL is set, otherwise the embedded database under CAIRN_DATA_DIR (a new one made
 * from `initialDataDir` when it holds one: see openPglite).
 */
export function openDb(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log?: Logger,
  options: { initialDataDir?: string } = {},
): Promise<Db> {
  return config.databaseUrl
    ? Promise.resolve(openPostgres(config.databaseUrl, log ? { log } : {}))
    : openPglite(config.dataDir, options);
}
