import type { Logger } from '@cairn/kit';
import { type FilterAst, httpRequestScheme, parse } from '@cairn/rules';
import { crsMissing } from '../api/errors.ts';
import { ATTACK_RULES, type AttackRule, attackRuleId } from './attack-rules.ts';
import { BODY_LIMIT_SIGNATURE } from './body-limit-signature.ts';
import { SIGNATURES, type Signature, signatureId } from './edge-signatures.ts';
import {
  ANOMALY_CRS_ID,
  ANOMALY_RULE_ID,
  type CrsCatalogue,
  crsAvailable,
  DEFAULT_SCORE_THRESHOLD,
  owaspCategories,
  owaspRuleId,
  readCrs,
} from './owasp.ts';
import { CATALOGUE_UPDATED, type ManagedRule, type ManagedRuleset } from './types.ts';

/** The real public ids of the two managed rulesets (reference §1.7). */
export const EDGE_MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';

const attackRule = (r: AttackRule): ManagedRule => ({
  id: attackRuleId(r),
  version: '1',
  action: r.action,
  // The rule runs a detection over the request's decoded values, not an expression.
  expression: 'true',
  description: r.description,
  categories: r.categories,
  enabled: r.enabled,
  ref: attackRuleId(r),
  last_updated: CATALOGUE_UPDATED,
});

/** The edge ruleset's expression rules: the signatures, then the body-limit rule. */
const EDGE_SIGNATURES: readonly Signature[] = [...SIGNATURES, BODY_LIMIT_SIGNATURE];

// One read of the CRS per directory and process: tests start many servers.
const crsCache = new Map<string, CrsCatalogue>();

const signatureRule = (s: Signature): ManagedRule => ({
  id: signatureId(s),
  version: '1',
  action: s.action,
  expression: s.expression,
  description: s.description,
  categories: s.categories,
  enabled: s.enabled,
  ref: signatureId(s),
  last_updated: CATALOGUE_UPDATED,
});

/**
 * The managed rulesets and the previous WAF's rule catalogue, built once per process. The edge
 * signatures are checked against the Rules language at start-up; the CRS is read on first use (about
 * 0.3 s) and, when it is missing, every feature that needs it answers 503 naming the install command.
 */
export class Catalogue {
  readonly edge: ManagedRuleset;
  readonly owasp: ManagedRuleset;
  readonly rulesets: readonly ManagedRuleset[];
  /** Compiled signature expressions, for the engine. */
  readonly signatureFilters: ReadonlyMap<string, FilterAst>;
  /** The rules that run attack detections instead of an expression, by rule id. */
  readonly attackRules: ReadonlyMap<string, AttackRule>;
  private crs: CrsCatalogue | undefined;
  private owaspRules: ManagedRule[] | undefined;

  constructor(readonly crsDir: string) {
    const scheme = httpRequestScheme();
    const filters = new Map<string, FilterAst>();
    for (const s of EDGE_SIGNATURES) filters.set(signatureId(s), parse(s.expression, scheme));
    this.signatureFilters = filters;
    this.attackRules = new Map(ATTACK_RULES.map((r) => [attackRuleId(r), r]));
    const edgeRules = [...EDGE_SIGNATURES.map(signatureRule), ...ATTACK_RULES.map(attackRule)];
    this.edge = {
      id: EDGE_MANAGED_RULESET_ID,
      name: 'Cairn Managed Ruleset',
      description:
        "Cairn's own rules: attack detections over the query, body (form, JSON, multipart, XML), headers and cookies (SQLi, XSS, command execution, traversal and file inclusion, SSRF, deserialisation) and signatures for well-known CVEs (Log4Shell, Shellshock, Spring4Shell, admin-panel probes, ...)",
      kind: 'managed',
      phase: 'http_request_firewall_managed',
      version: '1',
      last_updated: CATALOGUE_UPDATED,
      source: 'firewall_managed',
      rules: () => edgeRules,
    };
    this.owasp = {
      id: OWASP_RULESET_ID,
      name: 'Cairn OWASP Core Ruleset',
      description:
        'The OWASP Core Rule Set 3.3 as the operating system ships it (modsecurity-crs): one rule per CRS request rule, scored, and the anomaly-score rule that blocks above the threshold',
      kind: 'managed',
      phase: 'http_request_firewall_managed',
      version: '1',
      last_updated: CATALOGUE_UPDATED,
      source: 'firewall_managed',
      rules: () => this.owaspManagedRules(),
    };
    this.rulesets = [this.edge, this.owasp];
  }

  /** Says once, at start-up, what is missing and how to install it. */
  announce(log: Logger): void {
    if (!crsAvailable(this.crsDir)) {
      log.warn(
        `The OWASP Core Rule Set is missing from ${this.crsDir}: the OWASP managed ruleset and the previous WAF's OWASP package answer 503 until it is installed (apt-get install modsecurity-crs, or set CAIRN_CRS_DIR)`,
      );
    }
  }

  find(id: string): ManagedRuleset | undefined {
    return this.rulesets.find((r) => r.id === id);
  }

  /** The CRS request rules (throws 503 when the CRS is missing). */
  crsCatalogue(): CrsCatalogue {
    this.crs ??= crsCache.get(this.crsDir);
    if (!this.crs) {
      try {
        this.crs = readCrs(this.crsDir);
        crsCache.set(this.crsDir, this.crs);
      } catch (error) {
        if (error instanceof Error && error.name === 'CrsNotFoundError') {
          throw crsMissing(`The OWASP Core Rule Set is needed here but not found in ${this.crsDir}`);
        }
        throw error;
      }
    }
    return this.crs;
  }

  private owaspManagedRules(): ManagedRule[] {
    if (this.owaspRules) return this.owaspRules;
    const rules: ManagedRule[] = this.crsCatalogue().rules.map((r) => ({
      id: owaspRuleId(r.crsId),
      version: '1',
      action: 'score',
      action_parameters: { increment: r.score },
      expression: 'true',
      description: `${r.crsId}: ${r.message}`,
      categories: owaspCategories(r),
      enabled: true,
      ref: owaspRuleId(r.crsId),
      last_updated: CATALOGUE_UPDATED,
    }));
    rules.push({
      id: ANOMALY_RULE_ID,
      version: '1',
      action: 'block',
      expression: 'true',
      description: `${ANOMALY_CRS_ID}: Inbound Anomaly Score Exceeded`,
      categories: [],
      enabled: true,
      ref: ANOMALY_RULE_ID,
      last_updated: CATALOGUE_UPDATED,
      score_threshold: DEFAULT_SCORE_THRESHOLD,
    });
    this.owaspRules = rules;
    return rules;
  }
}
