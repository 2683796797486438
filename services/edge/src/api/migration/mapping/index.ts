import { EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../../../managed/catalogue.ts';
import { ANOMALY_RULE_ID, DEFAULT_SCORE_THRESHOLD } from '../../../managed/owasp.ts';
import { atLeast } from '../../zones/plans.ts';
import { MIGRATION_CODES, message } from '../errors.ts';
import { firewallRulesWithBypassWafManagedRules } from './firewall-rules-bypass-waf.ts';
import { managedPackageGroupModes, managedPackageRuleModes } from './managed-modes.ts';
import { owaspAction } from './owasp-action.ts';
import { owaspGroupOverrides, owaspRuleOverrides } from './owasp-overrides.ts';
import {
  owaspSensitivityDefault,
  owaspSensitivityHigh,
  owaspSensitivityLow,
  owaspSensitivityMedium,
  owaspSensitivityOff,
} from './owasp-sensitivity.ts';
import { pageRulesWithDisableSecurity } from './page-rules-disable-security.ts';
import { pageRulesWithWafOff } from './page-rules-waf-off.ts';
import { pageRulesWithWafOn } from './page-rules-waf-on.ts';
import {
  type Draft,
  type MappingInput,
  type MappingRow,
  type MigratedConfiguration,
  type MigratedRule,
  migratedRule,
} from './types.ts';
import { zoneWafSetting } from './zone-waf-setting.ts';

export type { MappingInput, MigratedConfiguration, MigratedRule } from './types.ts';

/** The mapping table, one function per row, in the order they apply (the setting before page rules). */
export const MAPPING_ROWS: readonly MappingRow[] = [
  firewallRulesWithBypassWafManagedRules,
  pageRulesWithDisableSecurity,
  pageRulesWithWafOff,
  zoneWafSetting,
  pageRulesWithWafOn,
  managedPackageGroupModes,
  managedPackageRuleModes,
  owaspSensitivityHigh,
  owaspSensitivityMedium,
  owaspSensitivityLow,
  owaspSensitivityDefault,
  owaspSensitivityOff,
  owaspAction,
  owaspGroupOverrides,
  owaspRuleOverrides,
];

/**
 * Why there is nothing to convert below Pro: a Free zone never had the previous WAF (`default`), or it
 * had it on a paid plan (`start`), where its configuration is kept but does not run on Free.
 */
function belowProText(zone: MappingInput['zone']): string {
  if (zone.wafMigrationState === 'default') {
    return `zone ${zone.name} is on the Free plan and never had the previous WAF managed rules: there is nothing to convert, and its WAF is configured with the Rulesets API`;
  }
  return `zone ${zone.name} is on the Free plan, where the previous WAF managed rules do not run: its configuration is kept, and runs again on a paid plan. Nothing can be converted on Free (executing the managed rulesets needs Pro or above): move the zone to a paid plan to upgrade that configuration; an upgrade on Free saves the configuration given, and the kept one is then no longer used`;
}

/**
 * The zone's previous-WAF configuration as the equivalent new configuration of the
 * `http_request_firewall_managed` entry point: skip rules first (firewall rules by priority, then page
 * rules by priority), then the execute rules of the managed rulesets. Zones below Pro do not run the
 * previous WAF: nothing to convert.
 */
export function mapConfiguration(input: MappingInput): {
  configuration: MigratedConfiguration;
  messages: Draft['messages'];
} {
  if (!atLeast(input.zone.plan, 'pro')) {
    return {
      configuration: { name: 'default', rules: [] },
      messages: [message(MIGRATION_CODES.noPreviousWaf, belowProText(input.zone))],
    };
  }
  const draft: Draft = {
    firewallSkips: [],
    pageRuleSkips: [],
    deployment: { kind: 'everywhere' },
    managedOverrides: new Map(),
    owasp: { deployed: true, paranoiaLevel: 2, scoreThreshold: DEFAULT_SCORE_THRESHOLD, action: 'block' },
    messages: [],
  };
  for (const row of MAPPING_ROWS) row.apply(input, draft);
  return { configuration: assemble(input, draft), messages: draft.messages };
}

function assemble(input: MappingInput, draft: Draft): MigratedConfiguration {
  const skips = [
    ...draft.firewallSkips,
    ...[...draft.pageRuleSkips].sort((a, b) => a.rank - b.rank).map((s) => s.rule),
  ];
  const executeParameters = executeParametersOf(input, draft);
  const executes: MigratedRule[] = [];
  const deploy = (expression: string, enabled: boolean, description: string) => {
    for (const action_parameters of executeParameters) {
      executes.push(migratedRule({ action: 'execute', expression, description, enabled, action_parameters }));
    }
  };
  const d = draft.deployment;
  if (d.kind === 'everywhere') deploy('true', true, '');
  else if (d.kind === 'disabled') {
    deploy('true', false, '');
    draft.messages.push(
      message(
        MIGRATION_CODES.migratedDisabled,
        "the zone's waf setting is off: the managed rulesets are deployed disabled (enabled: false); enable their execute rules to turn the new WAF Managed Rules on",
      ),
    );
  } else for (const w of d.where) deploy(w.expression, w.enabled, w.description);
  return { name: 'default', rules: [...skips, ...executes] };
}

/** One execute rule's parameters per deployed managed ruleset: the edge ruleset, then OWASP. */
function executeParametersOf(input: MappingInput, draft: Draft): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const order = new Map(input.catalogue.edge.rules().map((r, i) => [r.id, i]));
  const overrides = [...draft.managedOverrides.values()].sort(
    (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0),
  );
  out.push({
    id: EDGE_MANAGED_RULESET_ID,
    ...(overrides.length > 0 ? { overrides: { rules: overrides } } : {}),
  });
  if (draft.owasp.deployed) {
    const disabledLevels = draft.owasp.paranoiaLevel === 1 ? [2, 3, 4] : [3, 4];
    out.push({
      id: OWASP_RULESET_ID,
      overrides: {
        categories: disabledLevels.map((pl) => ({ category: `paranoia-level-${pl}`, enabled: false })),
        rules: [
          { id: ANOMALY_RULE_ID, action: draft.owasp.action, score_threshold: draft.owasp.scoreThreshold },
        ],
      },
    });
  }
  return out;
}
