import type { Queryable } from '@cairn/kit';
import type { Catalogue } from '../../managed/catalogue.ts';
import { EDGE_CODES, edgeError, noSuchObject, notEntitled } from '../errors.ts';
import { previousWafGone } from '../migration/errors.ts';
import { atLeast, planLabel } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';
import {
  ANOMALY_MODES,
  findPackage,
  type LegacyGroup,
  type LegacyPackage,
  type LegacyRule,
  packageGroups,
  packageRules,
  TRADITIONAL_MODES,
} from './catalogue.ts';
import { type PackageSettings, readModes, readPackageSettings } from './store.ts';

/**
 * The previous WAF is available to Pro zones and above, until the zone is upgraded to the new WAF
 * Managed Rules (migration state "complete", irreversible): then every endpoint of it says so.
 */
export function assertLegacyWaf(zone: Zone): void {
  if (zone.wafMigrationState === 'complete') throw previousWafGone(zone);
  if (!atLeast(zone.plan, 'pro')) {
    throw notEntitled(
      `not entitled to the WAF managed rules (previous version): they need the Pro plan or above, and zone ${zone.name} is on ${planLabel(zone.plan)}`,
    );
  }
}

export function packageOf(id: string, path: string): LegacyPackage {
  const pkg = findPackage(id);
  if (!pkg) throw noSuchObject(path, `No WAF package ${id}`);
  return pkg;
}

export function packageJson(pkg: LegacyPackage, zone: Zone, settings: PackageSettings) {
  return {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    detection_mode: pkg.detectionMode,
    zone_id: zone.id,
    status: 'active',
    ...(pkg.detectionMode === 'anomaly'
      ? { sensitivity: settings.sensitivity, action_mode: settings.actionMode }
      : {}),
  };
}

export async function packageView(db: Queryable, zone: Zone, pkg: LegacyPackage) {
  return packageJson(pkg, zone, await readPackageSettings(db, zone.id, pkg.id));
}

export async function groupViews(db: Queryable, catalogue: Catalogue, zone: Zone, pkg: LegacyPackage) {
  const groups = packageGroups(catalogue, pkg.id);
  const rules = packageRules(catalogue, pkg.id);
  const groupModes = await readModes(db, 'group', zone.id, pkg.id);
  const ruleModes = await readModes(db, 'rule', zone.id, pkg.id);
  return groups.map((g: LegacyGroup) => {
    const members = rules.filter((r) => r.groupId === g.id);
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      rules_count: members.length,
      modified_rules_count: members.filter((r) => ruleModes.has(r.id)).length,
      package_id: pkg.id,
      mode: groupModes.get(g.id) ?? 'on',
      allowed_modes: ['on', 'off'],
    };
  });
}

export async function ruleViews(db: Queryable, catalogue: Catalogue, zone: Zone, pkg: LegacyPackage) {
  const ruleModes = await readModes(db, 'rule', zone.id, pkg.id);
  return packageRules(catalogue, pkg.id).map((r: LegacyRule) => {
    const base = {
      id: r.id,
      description: r.description,
      priority: r.priority,
      group: { id: r.groupId, name: r.groupName },
      package_id: pkg.id,
    };
    if (pkg.detectionMode === 'anomaly') {
      return { ...base, allowed_modes: [...ANOMALY_MODES], mode: ruleModes.get(r.id) ?? r.defaultMode };
    }
    return {
      ...base,
      allowed_modes: [...TRADITIONAL_MODES],
      mode: ruleModes.get(r.id) ?? 'default',
      default_mode: r.defaultMode,
    };
  });
}

export const onlyAnomalyPackages = () =>
  edgeError(
    400,
    EDGE_CODES.onlyAnomalyPackages,
    'Only anomaly WAF packages can have their package attributes updated',
  );
