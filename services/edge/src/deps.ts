import type { Clock, Db, Logger } from '@cairn/kit';
import type { UpgradeHooks } from './api/migration/hooks.ts';
import type { Catalogue } from './managed/catalogue.ts';

/** What the edge service's functions need: storage, time, the managed-rule catalogue, a logger. */
export interface EdgeDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  catalogue: Catalogue;
  /** Steps inside the WAF upgrade's transaction; unset in production, a latch in tests. */
  upgradeHooks?: UpgradeHooks;
}
