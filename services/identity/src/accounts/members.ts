import { notFound } from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import { findAccountByEmail } from '../store/accounts.ts';
import { type Role, upsertMembership } from '../store/memberships.ts';
import { normalizeEmail } from './service.ts';

/** Makes the person with this account a member of the organization (for the developer console). */
export async function addMember(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  organizationId: string,
  email: string,
  role: Role = 'member',
): Promise<{ userId: number }> {
  const account = await findAccountByEmail(deps.db, normalizeEmail(email));
  if (!account) throw notFound(`No account with email ${email}; the person signs up first`);
  await upsertMembership(deps.db, organizationId, account.userId, role, deps.clock.now());
  return { userId: account.userId };
}
