/**
 * A step inside the upgrade's transaction, after every write and before the commit. Production leaves
 * it unset; tests pass one in the deps (a latch that holds the transaction open until they release it),
 * to prove the upgrade atomic and serialised without sleeping.
 */
export interface UpgradeHooks {
  /** Runs after every write of the upgrade, before the transaction commits. */
  beforeCommit?: (zoneId: string) => Promise<void>;
}
