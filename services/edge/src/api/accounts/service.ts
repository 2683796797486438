import { badRequest, type Db } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { newHexId } from '../ids.ts';
import { type Account, findAccount, insertAccount } from './store.ts';

export const DEFAULT_ACCOUNT = 'Default account';

/** The account named (created when missing: accounts are only a grouping of zones and tokens here). */
export async function ensureAccount(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  name = DEFAULT_ACCOUNT,
): Promise<Account> {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) throw badRequest('Account name must be 1 to 100 characters');
  const existing = await findAccount(deps.db, trimmed);
  if (existing) return existing;
  await insertAccount(deps.db, { id: newHexId(), name: trimmed, createdAt: deps.clock.now() });
  const made = await findAccount(deps.db, trimmed);
  if (!made) throw new Error(`account ${trimmed} could not be created`);
  return made;
}

export async function getAccount(db: Db, idOrName: string): Promise<Account> {
  const account = await findAccount(db, idOrName);
  if (!account) throw badRequest(`No edge account "${idOrName}" (see: cairn edge zones list)`);
  return account;
}

export const accountJson = (a: Account) => ({
  id: a.id,
  name: a.name,
  type: 'standard',
  settings: { enforce_twofactor: false },
  created_on: a.createdAt.toISOString(),
});
