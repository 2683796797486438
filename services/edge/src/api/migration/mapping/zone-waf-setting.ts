import type { MappingRow } from './types.ts';

/**
 * The zone's `waf` setting (reference §3, proposed mapping 3–4): on → the managed rulesets are deployed
 * for all traffic (`expression: "true"`); off → they are deployed disabled (`enabled: false`), so turning
 * the new WAF on later is one change per rule and keeps the converted overrides. Page rules with WAF On
 * may narrow this (their row runs after this one).
 */
export const zoneWafSetting: MappingRow = {
  name: 'zoneWafSetting',
  row: 'Zone setting Web Application Firewall (on/off)',
  apply({ legacy }, draft) {
    if (legacy.wafOn) {
      draft.deployment = { kind: 'everywhere' };
      return;
    }
    draft.deployment = { kind: 'disabled' };
  },
};
