import type { Db } from '@cairn/kit';
import { generatePlaces } from './generate/run.ts';
import { claimMeta } from './store/meta.ts';

export const DEMO_SEED = 'cairn-demo';

/**
 * On first start, a demo set so that search answers at once. Claimed through a meta row, so it happens once per
 * installation (not again after the places are deleted) and by one process when several start together.
 */
export async function seedDemo(db: Db, count: number): Promise<{ seeded: number; ms: number } | undefined> {
  if (count <= 0) return undefined;
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM places LIMIT 1) p',
  );
  if ((rows[0]?.n ?? 0) > 0) return undefined;
  if (!(await claimMeta(db, 'demo_seeded', new Date().toISOString()))) return undefined;
  const result = await generatePlaces(db, { count, seed: DEMO_SEED });
  return { seeded: result.written, ms: result.ms };
}
