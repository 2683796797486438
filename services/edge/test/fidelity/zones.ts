import type { PlanName } from '../../src/index.ts';

/** A seeded pseudo-random source (mulberry32): the same seed, the same zones. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    some: <T>(list: readonly T[], max: number): T[] => {
      const copy = [...list];
      const out: T[] = [];
      const n = Math.floor(next() * (max + 1));
      while (out.length < n && copy.length > 0)
        out.push(copy.splice(Math.floor(next() * copy.length), 1)[0] as T);
      return out;
    },
  };
}
export type Random = ReturnType<typeof random>;

/** The features of the seed's mapping table, as the fidelity table names them. */
export const FEATURES = [
  'waf setting',
  'package, group and rule modes',
  'OWASP sensitivity and action',
  'OWASP group and rule overrides',
  'firewall rules Bypass > WAF Managed Rules',
  'page rules Disable Security',
  'page rules WAF Off/On',
  'URI-based overrides',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A zone's previous-WAF configuration, as the fidelity run writes it through the API. */
export interface Recipe {
  name: string;
  plan: PlanName;
  wafOn: boolean;
  groupModes: [string, 'on' | 'off'][];
  ruleModes: [string, string][];
  owasp: { sensitivity: 'high' | 'medium' | 'low' | 'off'; action: 'simulate' | 'block' | 'challenge' };
  owaspGroupsOff: string[];
  owaspRulesOff: string[];
  bypassPaths: string[];
  pageRules: { path: string; action: 'disable_security' | 'waf_off' | 'waf_on' }[];
  uriOverride: boolean;
  features: Feature[];
}

/** What the catalogue offers to mix. */
export interface Menu {
  groups: string[];
  legacyRules: string[];
  owaspGroups: string[];
  owaspRules: string[];
}

const PATHS = ['/admin/', '/api/', '/search', '/login', '/static/', '/cgi-bin/', '/'];
const MODES = ['default', 'disable', 'simulate', 'block', 'challenge'];

/** A random mix of every feature the mapping table covers; `allowOverrides` adds URI overrides sometimes. */
export function recipe(rng: Random, n: number, menu: Menu, allowOverrides: boolean): Recipe {
  const r: Recipe = {
    name: `fidelity-${n}.example.com`,
    plan: rng.pick(['pro', 'business', 'enterprise'] as const),
    wafOn: rng.chance(0.8),
    groupModes: rng.some(menu.groups, 2).map((g) => [g, rng.pick(['on', 'off'] as const)]),
    ruleModes: rng.some(menu.legacyRules, 6).map((id) => [id, rng.pick(MODES)]),
    owasp: {
      sensitivity: rng.pick(['high', 'medium', 'low', 'off'] as const),
      action: rng.pick(['simulate', 'block', 'challenge'] as const),
    },
    owaspGroupsOff: rng.chance(0.3) ? rng.some(menu.owaspGroups, 2) : [],
    owaspRulesOff: rng.chance(0.4) ? rng.some(menu.owaspRules, 4) : [],
    bypassPaths: rng.chance(0.4) ? rng.some(PATHS.slice(0, -1), 2) : [],
    pageRules: [],
    uriOverride: allowOverrides && rng.chance(0.15),
    features: ['waf setting'],
  };
  const pagePaths = rng.chance(0.5) ? rng.some(PATHS, 3) : [];
  r.pageRules = pagePaths.map((path) => ({
    path,
    action: rng.pick(['disable_security', 'waf_off', 'waf_on'] as const),
  }));
  if (r.groupModes.length > 0 || r.ruleModes.length > 0) r.features.push('package, group and rule modes');
  if (r.owasp.sensitivity !== 'off') r.features.push('OWASP sensitivity and action');
  if (r.owaspGroupsOff.length > 0 || r.owaspRulesOff.length > 0)
    r.features.push('OWASP group and rule overrides');
  if (r.bypassPaths.length > 0) r.features.push('firewall rules Bypass > WAF Managed Rules');
  if (r.pageRules.some((p) => p.action === 'disable_security'))
    r.features.push('page rules Disable Security');
  if (r.pageRules.some((p) => p.action !== 'disable_security')) r.features.push('page rules WAF Off/On');
  if (r.uriOverride) r.features.push('URI-based overrides');
  return r;
}
