import type { Catalogue } from '../../managed/catalogue.ts';
import { SIGNATURES, signatureId } from '../../managed/edge-signatures.ts';
import { owaspRuleId } from '../../managed/owasp.ts';
import { stableId } from '../ids.ts';

/**
 * The previous WAF's catalogue: the "CloudFlare" package (traditional: the edge managed ruleset's
 * signatures, grouped as the legacy groups) and the OWASP package (anomaly: the CRS files as groups and
 * CRS rule ids as rules). Ids are stable across processes; legacy rule ids are numeric strings.
 */
export const MANAGED_PACKAGE_ID = stableId('waf-package:cloudflare');
export const OWASP_PACKAGE_ID = stableId('waf-package:owasp');

export type DetectionMode = 'traditional' | 'anomaly';

export interface LegacyPackage {
  id: string;
  name: string;
  description: string;
  detectionMode: DetectionMode;
}

export interface LegacyGroup {
  id: string;
  packageId: string;
  name: string;
  description: string;
}

export interface LegacyRule {
  id: string;
  packageId: string;
  groupId: string;
  groupName: string;
  description: string;
  priority: string;
  /** traditional: block/challenge/simulate/disable; anomaly: on/off. */
  defaultMode: string;
  /** The rule of the new managed ruleset it corresponds to (the upgrade maps modes to overrides). */
  newRuleId: string;
}

export const PACKAGES: readonly LegacyPackage[] = [
  {
    id: MANAGED_PACKAGE_ID,
    name: 'CloudFlare',
    description:
      'Signatures written by the Cairn security team (the edge managed ruleset, previous WAF form)',
    detectionMode: 'traditional',
  },
  {
    id: OWASP_PACKAGE_ID,
    name: 'OWASP ModSecurity Core Rule Set',
    description: 'The OWASP Core Rule Set from the operating system (modsecurity-crs), scored by anomaly',
    detectionMode: 'anomaly',
  },
];

export const TRADITIONAL_MODES = ['default', 'disable', 'simulate', 'block', 'challenge'] as const;
export const ANOMALY_MODES = ['on', 'off'] as const;

const legacyMode = (action: string, enabled: boolean) =>
  !enabled ? 'disable' : action === 'log' ? 'simulate' : action === 'block' ? 'block' : 'challenge';

export function packageGroups(catalogue: Catalogue, packageId: string): LegacyGroup[] {
  if (packageId === MANAGED_PACKAGE_ID) {
    const names = [...new Set(SIGNATURES.map((s) => s.group))].sort();
    return names.map((name) => ({
      id: stableId(`waf-group:${name}`),
      packageId,
      name,
      description: `${name} signatures`,
    }));
  }
  return catalogue.crsCatalogue().groups.map((g) => ({
    id: stableId(`waf-group:owasp:${g.file}`),
    packageId,
    name: g.name,
    description: `CRS rules of ${g.file}`,
  }));
}

export function packageRules(catalogue: Catalogue, packageId: string): LegacyRule[] {
  if (packageId === MANAGED_PACKAGE_ID) {
    return SIGNATURES.map((s) => ({
      id: s.legacyId,
      packageId,
      groupId: stableId(`waf-group:${s.group}`),
      groupName: s.group,
      description: s.description,
      priority: s.legacyId,
      defaultMode: legacyMode(s.action, s.enabled),
      newRuleId: signatureId(s),
    }));
  }
  return catalogue.crsCatalogue().rules.map((r) => ({
    id: String(r.crsId),
    packageId,
    groupId: stableId(`waf-group:owasp:${r.file}`),
    groupName: catalogue.crsCatalogue().groups.find((g) => g.file === r.file)?.name ?? r.file,
    description: r.message,
    priority: String(r.crsId),
    defaultMode: 'on',
    newRuleId: owaspRuleId(r.crsId),
  }));
}

export const findPackage = (id: string) => PACKAGES.find((p) => p.id === id);
