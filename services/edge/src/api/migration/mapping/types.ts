import type { LegacyWafConfig } from '../../../legacy-config.ts';
import type { Catalogue } from '../../../managed/catalogue.ts';
import type { Message } from '../../envelope.ts';
import type { Zone } from '../../zones/store.ts';

/**
 * A rule of the produced configuration, in the order and shape of the reference's example: `id`,
 * `version` and `ref` are empty strings (the pending-mode body), so the configuration can be PUT back
 * as it is.
 */
export interface MigratedRule {
  id: '';
  version: '';
  action: 'execute' | 'skip';
  expression: string;
  description: string;
  ref: '';
  enabled: boolean;
  action_parameters: Record<string, unknown>;
  logging?: { enabled: boolean };
}

export interface MigratedConfiguration {
  name: string;
  rules: MigratedRule[];
}

/** What every mapping row reads: the zone, its whole previous-WAF configuration, the catalogue. */
export interface MappingInput {
  zone: Zone;
  legacy: LegacyWafConfig;
  /** True when the OWASP package's sensitivity and action were never changed (the seed's "Default"). */
  owaspDefaults: boolean;
  catalogue: Catalogue;
}

export interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
}

/** Where the managed rulesets run: everywhere, deployed but disabled, or only where page rules say. */
export type Deployment =
  | { kind: 'everywhere' }
  | { kind: 'disabled' }
  | {
      kind: 'conditional';
      where: { expression: string; enabled: boolean; description: string }[];
    };

/** The configuration being built; each mapping row adds its part. */
export interface Draft {
  /** Skip rules from firewall rules, in the firewall rules' priority order. */
  firewallSkips: MigratedRule[];
  /** Skip rules from page rules with the page rule's rank (0 = the highest priority). */
  pageRuleSkips: { rank: number; rule: MigratedRule }[];
  deployment: Deployment;
  /** Rule overrides of the edge managed ruleset, by rule id. */
  managedOverrides: Map<string, RuleOverride>;
  owasp: {
    deployed: boolean;
    paranoiaLevel: 1 | 2;
    scoreThreshold: number;
    action: string;
  };
  messages: Message[];
}

/** One row of the seed's mapping table: its name, the row it implements, and what it adds. */
export interface MappingRow {
  name: string;
  row: string;
  apply(input: MappingInput, draft: Draft): void;
}

export function migratedRule(
  fields: Pick<MigratedRule, 'action' | 'expression' | 'description' | 'enabled' | 'action_parameters'> & {
    logging?: { enabled: boolean };
  },
): MigratedRule {
  return {
    id: '',
    version: '',
    action: fields.action,
    expression: fields.expression,
    description: fields.description,
    ref: '',
    enabled: fields.enabled,
    action_parameters: fields.action_parameters,
    ...(fields.logging ? { logging: fields.logging } : {}),
  };
}

/** Rule descriptions are at most 500 characters in the Rulesets API. */
export function describe(prefix: string, text: string): string {
  const full = text === '' ? prefix : `${prefix}: ${text}`;
  return full.length <= 500 ? full : `${full.slice(0, 499)}…`;
}
