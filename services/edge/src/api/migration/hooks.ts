/**
 * Test-only pauses inside the upgrade's transaction, to prove it atomic and serialised: a test sets a
 * hook in-process, or a child process gets `CAIRN_TEST_WAF_UPGRADE_PAUSE_MS` (read once, at load) and
 * then prints `waf-upgrade: paused <zone id>` and waits that long before committing, so the test can
 * kill it mid-transaction. Unset (always, outside tests), the hooks do nothing.
 */
export interface UpgradeHooks {
  /** Runs after every write of the upgrade, before the transaction commits. */
  beforeCommit: ((zoneId: string) => Promise<void>) | undefined;
}

const pauseMs = Number(process.env.CAIRN_TEST_WAF_UPGRADE_PAUSE_MS ?? '0');

export const upgradeHooks: UpgradeHooks = {
  beforeCommit:
    Number.isFinite(pauseMs) && pauseMs > 0
      ? async (zoneId) => {
          process.stdout.write(`waf-upgrade: paused ${zoneId}\n`);
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      : undefined,
};
