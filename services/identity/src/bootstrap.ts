import { hashToken } from '@cairn/kit';
import type { IdentityDeps } from './deps.ts';
import { createOrganization } from './organizations/service.ts';
import { createServiceKey } from './service-keys/service.ts';
import { findOrganization, listOrganizations } from './store/organizations.ts';
import { findServiceKeyByHash } from './store/service-keys.ts';

export const DEMO_ORGANIZATION = 'Demo';

export interface BootstrapResult {
  organizationId: string;
  /** A freshly generated demo key, to be printed once; undefined when none was created now. */
  newServiceKey?: string;
}

/**
 * On first start, a demo organization with one service key, so the API can be tried at once. A key given in
 * CAIRN_BOOTSTRAP_SERVICE_KEY is installed instead (idempotently), so automation knows it in advance.
 */
export async function bootstrapDemo(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  fixedKey: string | undefined,
): Promise<BootstrapResult | undefined> {
  const existing = await findOrganization(deps.db, DEMO_ORGANIZATION);
  if (fixedKey) {
    const org = existing ?? (await createOrganization(deps, DEMO_ORGANIZATION));
    const known = await findServiceKeyByHash(deps.db, hashToken(fixedKey));
    if (!known)
      await createServiceKey(deps, { organizationId: org.id, name: 'Bootstrap key', secret: fixedKey });
    return { organizationId: known?.organizationId ?? org.id };
  }
  if (existing || (await listOrganizations(deps.db)).length > 0) return undefined;
  const org = await createOrganization(deps, DEMO_ORGANIZATION);
  const { secret } = await createServiceKey(deps, { organizationId: org.id, name: 'Demo key' });
  return { organizationId: org.id, newServiceKey: secret };
}
