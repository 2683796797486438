import type { Db, Queryable } from '@cairn/kit';

const DRY_RUN = Symbol('dry run');

/**
 * Runs `fn` in one transaction. A dry run does all the same work — checks, trust, even applying an edit that
 * would apply at once — then rolls it back, so the answer is exactly what would have happened and nothing is
 * written.
 */
export async function inTransaction<T>(
  db: Db,
  dryRun: boolean,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      result = { value: await fn(tx) };
      if (dryRun) throw DRY_RUN;
    });
  } catch (error) {
    if (error !== DRY_RUN) throw error;
  }
  return result!.value;
}
