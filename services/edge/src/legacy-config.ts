import type { Queryable } from '@cairn/kit';
import { listFilters } from './api/filters/store.ts';
import { listFirewallRules } from './api/firewall-rules/store.ts';
import { listPageRules, type PageRule } from './api/page-rules/store.ts';
import { MANAGED_PACKAGE_ID, OWASP_PACKAGE_ID, packageRules } from './api/waf-legacy/catalogue.ts';
import {
  listOverrides,
  type PackageSettings,
  readModes,
  readPackageSettings,
  type WafOverride,
} from './api/waf-legacy/store.ts';
import { wafSettingOn } from './api/zones/settings.ts';
import type { Catalogue } from './managed/catalogue.ts';

/**
 * Everything of a zone's previous-WAF configuration in one read, for the WAF upgrade (issue 8): the
 * `waf` setting, both packages' settings and modes (with each legacy rule's new rule id), URI-based
 * overrides, firewall rules with their filter expressions, page rules. Pass the upgrade's transaction.
 */
export interface LegacyWafConfig {
  wafOn: boolean;
  owasp: PackageSettings & { groupModes: Map<string, string>; ruleModes: Map<string, string> };
  managed: {
    groupModes: Map<string, string>;
    /** Legacy rule id → mode, for the rules whose mode differs from "default". */
    ruleModes: Map<string, string>;
    /** Legacy rule id → rule id in the edge managed ruleset. */
    newRuleIds: Map<string, string>;
  };
  overrides: WafOverride[];
  firewallRules: {
    id: string;
    action: string;
    products: string[];
    priority: number | null;
    paused: boolean;
    description: string;
    expression: string;
  }[];
  pageRules: PageRule[];
}

export async function readLegacyWafConfig(
  db: Queryable,
  catalogue: Catalogue,
  zoneId: string,
): Promise<LegacyWafConfig> {
  const filters = new Map((await listFilters(db, zoneId)).map((f) => [f.id, f]));
  return {
    wafOn: await wafSettingOn(db, zoneId),
    owasp: {
      ...(await readPackageSettings(db, zoneId, OWASP_PACKAGE_ID)),
      groupModes: await readModes(db, 'group', zoneId, OWASP_PACKAGE_ID),
      ruleModes: await readModes(db, 'rule', zoneId, OWASP_PACKAGE_ID),
    },
    managed: {
      groupModes: await readModes(db, 'group', zoneId, MANAGED_PACKAGE_ID),
      ruleModes: await readModes(db, 'rule', zoneId, MANAGED_PACKAGE_ID),
      newRuleIds: new Map(packageRules(catalogue, MANAGED_PACKAGE_ID).map((r) => [r.id, r.newRuleId])),
    },
    overrides: await listOverrides(db, zoneId),
    firewallRules: (await listFirewallRules(db, zoneId)).map((r) => ({
      id: r.id,
      action: r.action,
      products: r.products,
      priority: r.priority,
      paused: r.paused,
      description: r.description,
      expression: filters.get(r.filterId)?.expression ?? '',
    })),
    pageRules: await listPageRules(db, zoneId),
  };
}
