import { badRequest, conflict, newId, notFound, type Queryable } from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import {
  findOrganization,
  insertOrganization,
  listOrganizations,
  type Organization,
} from '../store/organizations.ts';

export const ORGANIZATION_NAME_MAX = 100;

export function checkOrganizationName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw badRequest('Organization name must not be empty');
  if (trimmed.length > ORGANIZATION_NAME_MAX) {
    throw badRequest(`Organization name is longer than ${ORGANIZATION_NAME_MAX} characters`);
  }
  if (/[\p{Cc}]/u.test(trimmed)) throw badRequest('Organization name must not contain control characters');
  return trimmed;
}

export async function createOrganization(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  name: string,
): Promise<Organization> {
  const clean = checkOrganizationName(name);
  if (await findOrganization(deps.db, clean))
    throw conflict(`An organization named "${clean}" already exists`);
  const org: Organization = { id: newId(), name: clean, createdAt: deps.clock.now() };
  await insertOrganization(deps.db, org);
  return org;
}

export async function getOrganization(db: Queryable, idOrName: string): Promise<Organization> {
  const org = await findOrganization(db, idOrName);
  if (!org) throw notFound(`No organization with id or name "${idOrName}"`);
  return org;
}

export { listOrganizations };
