/** A rule of a managed ruleset, as the Rulesets API shows it (plus catalogue links for the previous WAF). */
export interface ManagedRule {
  id: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  categories: string[];
  enabled: boolean;
  ref: string;
  last_updated: string;
  action_parameters?: Record<string, unknown>;
  /** Only on the OWASP anomaly-score rule. */
  score_threshold?: number;
}

export interface ManagedRuleset {
  id: string;
  name: string;
  description: string;
  kind: 'managed';
  phase: 'http_request_firewall_managed';
  version: string;
  last_updated: string;
  source: string;
  /** Throws (503, naming the install command) when the rules need the CRS and it is missing. */
  rules(): readonly ManagedRule[];
}

/** When the catalogue was last changed: the managed rulesets' `last_updated`. */
export const CATALOGUE_UPDATED = '2025-06-01T00:00:00.000000Z';
