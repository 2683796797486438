/**
 * What an API token may do, per zone: `<area>:read` or `<area>:edit` (edit includes read). A grant on
 * zone `*` covers every zone of the token's account; `zone:edit` on `*` may also create zones.
 * Shorthands: `read` (every area, read) and `edit` (every area, edit).
 */
export const AREAS = ['zone', 'zone_settings', 'dns', 'waf', 'firewall', 'page_rules', 'rulesets'] as const;
export type Area = (typeof AREAS)[number];
export type Level = 'read' | 'edit';

export const PERMISSIONS: readonly string[] = AREAS.flatMap((a) => [`${a}:read`, `${a}:edit`]);

export const AREA_HELP: Record<Area, string> = {
  zone: 'the zone itself (name, plan, pause, delete; zone:edit on * creates zones)',
  zone_settings: 'zone settings (waf, security_level, url_normalization)',
  dns: 'DNS records (TXT: confirming another account’s zone under or over this one)',
  waf: 'the previous WAF managed rules: packages, groups, rules, URI-based overrides',
  firewall: 'firewall rules and filters',
  page_rules: 'page rules',
  rulesets: 'the Rulesets API: zone rulesets, rules, entry points, versions',
};

/** Expands `read`/`edit` shorthands and checks every name; returns the sorted set or an error message. */
export function parsePermissions(list: readonly string[]): string[] | string {
  const out = new Set<string>();
  for (const raw of list) {
    const p = raw.trim();
    if (p === 'read' || p === 'edit') {
      for (const a of AREAS) out.add(`${a}:${p}`);
    } else if (PERMISSIONS.includes(p)) {
      out.add(p);
    } else {
      return `unknown permission "${p}"; use read, edit or <area>:read|edit with area one of ${AREAS.join(', ')}`;
    }
  }
  if (out.size === 0) return 'give at least one permission';
  return [...out].sort();
}

export interface Grant {
  zoneId: string;
  permission: string;
}

export function allows(grants: readonly Grant[], zoneId: string, area: Area, level: Level): boolean {
  return grants.some(
    (g) =>
      (g.zoneId === zoneId || g.zoneId === '*') &&
      (g.permission === `${area}:edit` || (level === 'read' && g.permission === `${area}:read`)),
  );
}

/** Any grant at all on the zone lets the token see the zone object itself. */
export const seesZone = (grants: readonly Grant[], zoneId: string) =>
  grants.some((g) => g.zoneId === zoneId || g.zoneId === '*');
