import type { ManagedRule, ManagedRuleset } from '../../managed/types.ts';

/** A rule as stored in a version snapshot. `version` counts the rule's own changes. */
export interface StoredRule {
  id: string;
  version: number;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  ref: string;
  last_updated: string;
  action_parameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
}

/** What makes a rule "the same rule" for versioning: everything but its id, version and time. */
export type RuleContent = Omit<StoredRule, 'id' | 'version' | 'last_updated'>;

export interface ZoneRuleset {
  id: string;
  zoneId: string;
  name: string;
  description: string;
  kind: 'zone' | 'custom';
  phase: string;
  version: number;
  lastUpdated: Date;
}

export interface RulesetVersion {
  rulesetId: string;
  version: number;
  name: string;
  description: string;
  lastUpdated: Date;
  rules: StoredRule[];
}

/** RFC 3339 with microseconds, as the real API writes `last_updated`. */
export const timestamp = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export function ruleJson(r: StoredRule) {
  return {
    id: r.id,
    version: String(r.version),
    action: r.action,
    expression: r.expression,
    description: r.description,
    last_updated: r.last_updated,
    ref: r.ref,
    enabled: r.enabled,
    ...(r.action_parameters ? { action_parameters: r.action_parameters } : {}),
    ...(r.logging ? { logging: r.logging } : {}),
  };
}

export function rulesetJson(rs: ZoneRuleset, version: RulesetVersion, withRules: boolean) {
  return {
    id: rs.id,
    name: version.name,
    description: version.description,
    kind: rs.kind,
    version: String(version.version),
    last_updated: timestamp(version.lastUpdated),
    phase: rs.phase,
    ...(withRules ? { rules: version.rules.map(ruleJson) } : {}),
  };
}

export function managedRulesetJson(rs: ManagedRuleset, rules?: readonly ManagedRule[]) {
  return {
    id: rs.id,
    name: rs.name,
    description: rs.description,
    source: rs.source,
    kind: rs.kind,
    version: rs.version,
    last_updated: rs.last_updated,
    phase: rs.phase,
    ...(rules ? { rules: [...rules] } : {}),
  };
}

/** Stable JSON for comparing rule contents (key order does not matter). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const ruleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    version: { type: 'string', pattern: '^[0-9]+$' },
    action: { type: 'string' },
    expression: { type: 'string' },
    description: { type: 'string' },
    last_updated: { type: 'string' },
    ref: { type: 'string' },
    enabled: { type: 'boolean' },
    action_parameters: { type: 'object' },
    logging: {
      type: 'object',
      properties: { enabled: { type: 'boolean' } },
      required: ['enabled'],
      additionalProperties: false,
    },
    categories: { type: 'array', items: { type: 'string' }, description: 'Read-only; managed rules only' },
    score_threshold: { type: 'integer', description: 'Read-only; the OWASP anomaly-score rule only' },
  },
  required: ['id', 'version', 'action', 'expression', 'description', 'last_updated', 'ref', 'enabled'],
  additionalProperties: false,
};

export function rulesetSchema(withRules: boolean) {
  const properties: Record<string, unknown> = {
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    name: { type: 'string' },
    description: { type: 'string' },
    kind: { type: 'string', enum: ['managed', 'custom', 'root', 'zone'] },
    version: { type: 'string', pattern: '^[0-9]+$' },
    last_updated: { type: 'string' },
    phase: { type: 'string' },
    source: { type: 'string' },
  };
  if (withRules) properties.rules = { type: 'array', items: ruleSchema };
  return {
    type: 'object',
    properties,
    required: [
      'id',
      'name',
      'description',
      'kind',
      'version',
      'last_updated',
      'phase',
      ...(withRules ? ['rules'] : []),
    ],
    additionalProperties: false,
  };
}
