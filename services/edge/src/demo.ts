import { randomBytes } from 'node:crypto';
import { ensureAccount } from './api/accounts/service.ts';
import { createZone } from './api/zones/service.ts';
import { findSetting, writeSetting } from './api/zones/settings.ts';
import { findZoneByName, type Zone } from './api/zones/store.ts';
import { createDashboardUser } from './dashboard/service.ts';
import type { EdgeDeps } from './deps.ts';

/** The zone a fresh installation protects, so there is something to try the WAF on. */
export const DEMO_ZONE = 'demo.cairn.localhost';
export const DEMO_ACCOUNT = 'Demo';
export const DEMO_LOGIN = 'demo@cairn.localhost';

export interface EdgeDemo {
  zone: Zone;
  email: string;
  /** Shown once, at creation. */
  password: string;
}

/**
 * On the first start: a Pro zone `demo.cairn.localhost` on the previous WAF (the `waf` setting on, the
 * upgrade not started) whose origin is Cairn's own API (`origin`), and a dashboard login for its account.
 * Undefined when the zone exists already (a later start, or someone made it).
 */
export async function bootstrapEdgeDemo(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  origin: string,
): Promise<EdgeDemo | undefined> {
  if (await findZoneByName(deps.db, DEMO_ZONE)) return undefined;
  const account = await ensureAccount(deps, DEMO_ACCOUNT);
  let zone: Zone;
  try {
    zone = await createZone(deps, { accountId: account.id, name: DEMO_ZONE, plan: 'pro', origin });
  } catch (error) {
    // Another process sharing the database made it first: that one prints the lines.
    if (await findZoneByName(deps.db, DEMO_ZONE)) return undefined;
    throw error;
  }
  await writeSetting(deps.db, zone.id, zone.plan, findSetting('waf')!, 'on', deps.clock.now());
  const password = randomBytes(12).toString('base64url');
  await createDashboardUser(deps, { accountId: account.id, email: DEMO_LOGIN, password });
  return { zone, email: DEMO_LOGIN, password };
}

/** What `cairn serve` prints about the demo zone: a request that passes, one that is blocked, the login. */
export function demoLines(
  demo: EdgeDemo,
  urls: { proxy: string; dashboard: string },
  serviceKey?: string,
): string[] {
  const host = `-H 'Host: ${DEMO_ZONE}'`;
  const key = serviceKey ?? '<your service key>';
  return [
    `Created the zone ${DEMO_ZONE} (Pro, on the previous WAF managed rules); its origin is this server's places API.`,
    'Through the edge proxy, a search passes:',
    `  curl ${host} -H 'Authorization: Bearer ${key}' -H 'X-Places-Api-Version: 2025-06-17' '${urls.proxy}/places/search?query=coffee&limit=3'`,
    'and an attack is blocked (403):',
    `  curl -i ${host} '${urls.proxy}/places/search?query=%3Cscript%3Ealert(1)%3C%2Fscript%3E'`,
    `Its dashboard: ${urls.dashboard} — sign in as ${demo.email} with the password ${demo.password} (shown this once)`,
    `To upgrade it to the new WAF: in the dashboard open ${DEMO_ZONE} → Managed rules configuration → Deploy, or PUT /client/v4/zones/${demo.zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1 with the body of GET /client/v4/zones/${demo.zone.id}/waf_migration/config?phase_two=1`,
  ];
}
