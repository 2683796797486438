import { MANAGED_PACKAGE_ID, OWASP_PACKAGE_ID, packageRules } from '../api/waf-legacy/catalogue.ts';
import type { WafOverride } from '../api/waf-legacy/store.ts';
import type { LegacyWafConfig } from '../legacy-config.ts';
import { ANOMALY_CRS_ID } from '../managed/owasp.ts';
import type { CompileContext } from './compile-context.ts';
import type { CompiledCrs, CrsRuleView } from './crs-run.ts';
import { runCrs } from './crs-run.ts';
import { compileExpression } from './expressions.ts';
import type { RequestView } from './request.ts';
import { type CompiledSignature, type EventFrame, type RunOutcome, runSignatures } from './signatures.ts';
import { pageRuleTarget, type UrlMatcher, wildcardUrl } from './url-pattern.ts';
import type { EventAction } from './verdict.ts';

/** Old OWASP sensitivity → anomaly threshold, and the higher one for AJAX requests (reference §2.1). */
const THRESHOLDS: Record<string, { normal: number; ajax: number }> = {
  high: { normal: 25, ajax: 65 },
  medium: { normal: 40, ajax: 80 },
  low: { normal: 60, ajax: 120 },
};

const OWASP_ACTION: Record<string, EventAction> = { simulate: 'log', block: 'block', challenge: 'challenge' };

/** The previous WAF for one set of URI-based overrides (or none): the two packages, compiled. */
export interface LegacyVariant {
  signatures: CompiledSignature[];
  crs?: CompiledCrs;
}

export interface LegacyPlan {
  wafOn: boolean;
  /** Active page rules, highest priority first; the first that matches decides (`waf` on/off or none). */
  pageRules: { id: string; matches: UrlMatcher; waf: 'on' | 'off' | undefined }[];
  base: LegacyVariant;
  /** URI-based overrides, lowest priority number first; the first whose URL matches applies. */
  overrides: { id: string; urls: UrlMatcher[]; variant: LegacyVariant }[];
}

const signatureAction = (mode: string): EventAction | undefined =>
  mode === 'block' ? 'block' : mode === 'challenge' ? 'challenge' : mode === 'simulate' ? 'log' : undefined;

function compileVariant(ctx: CompileContext, config: LegacyWafConfig, override?: WafOverride): LegacyVariant {
  const expressions = new Map(ctx.catalogue.edge.rules().map((r) => [r.id, r.expression]));
  const signatures: CompiledSignature[] = [];
  for (const rule of packageRules(ctx.catalogue, MANAGED_PACKAGE_ID)) {
    const groupMode = config.managed.groupModes.get(rule.groupId) ?? 'on';
    if (groupMode === 'off' || override?.groups[rule.groupId] === 'disable') continue;
    let mode = override?.rules[rule.id] ?? config.managed.ruleModes.get(rule.id) ?? 'default';
    if (mode === 'default') mode = rule.defaultMode;
    mode = override?.rewriteAction[mode] ?? mode;
    if (mode === 'default') mode = rule.defaultMode;
    const action = signatureAction(mode);
    const expression = expressions.get(rule.newRuleId);
    if (!action || !expression) continue;
    signatures.push({
      id: rule.id,
      description: rule.description,
      action,
      expr: compileExpression(expression),
    });
  }
  const variant: LegacyVariant = { signatures };
  const owasp = config.owasp;
  const threshold = THRESHOLDS[owasp.sensitivity];
  if (!threshold) return variant;
  let crsRules: ReturnType<typeof packageRules>;
  try {
    crsRules = packageRules(ctx.catalogue, OWASP_PACKAGE_ID);
  } catch (error) {
    ctx.warnings.push(`the previous WAF's OWASP package cannot run: ${(error as Error).message}`);
    return variant;
  }
  const points = new Map(ctx.catalogue.crsCatalogue().rules.map((r) => [r.crsId, r]));
  const views = new Map<number, CrsRuleView>();
  const disabled: number[] = [];
  for (const rule of crsRules) {
    const crsId = Number(rule.id);
    const crs = points.get(crsId);
    if (!crs || crs.paranoiaLevel > 1) continue;
    const groupOff =
      (owasp.groupModes.get(rule.groupId) ?? 'on') === 'off' || override?.groups[rule.groupId] === 'disable';
    const mode = override?.rules[rule.id] ?? owasp.ruleModes.get(rule.id) ?? 'on';
    if (groupOff || mode === 'off' || mode === 'disable') {
      disabled.push(crsId);
      continue;
    }
    views.set(crsId, { id: rule.id, description: rule.description, action: 'score', points: crs.score });
  }
  variant.crs = {
    waf: ctx.engines.get({ paranoiaLevel: 1, disabledRules: disabled, ruleActions: {} }),
    rules: views,
    anomaly: {
      enabled: true,
      action: OWASP_ACTION[owasp.actionMode] ?? 'challenge',
      threshold: threshold.normal,
      id: String(ANOMALY_CRS_ID),
      description: `${ANOMALY_CRS_ID}: Inbound Anomaly Score Exceeded`,
    },
    ajaxThreshold: threshold.ajax,
  };
  return variant;
}

export function compileLegacy(ctx: CompileContext, config: LegacyWafConfig, wafAllowed: boolean): LegacyPlan {
  const pageRules: LegacyPlan['pageRules'] = [];
  for (const rule of config.pageRules) {
    if (rule.status !== 'active') continue;
    const target = rule.targets[0]?.constraint;
    if (!target) continue;
    let waf: 'on' | 'off' | undefined;
    for (const a of rule.actions) {
      if (a.id === 'disable_security') waf = 'off';
      else if (a.id === 'waf' && (a.value === 'on' || a.value === 'off') && waf === undefined) waf = a.value;
    }
    pageRules.push({ id: rule.id, matches: pageRuleTarget(target.operator, target.value), waf });
  }
  const reachable = wafAllowed && (config.wafOn || pageRules.some((p) => p.waf === 'on'));
  if (!reachable) return { wafOn: false, pageRules: [], base: { signatures: [] }, overrides: [] };
  return {
    wafOn: config.wafOn,
    pageRules,
    base: compileVariant(ctx, config),
    overrides: config.overrides
      .filter((o) => !o.paused)
      .map((o) => ({ id: o.id, urls: o.urls.map(wildcardUrl), variant: compileVariant(ctx, config, o) })),
  };
}

/** Is the previous WAF on for this request (zone setting, then the first matching page rule)? */
export function legacyOnFor(plan: LegacyPlan, view: RequestView): boolean {
  const url = view.fullUrl;
  for (const rule of plan.pageRules) {
    if (!rule.matches(url)) continue;
    return rule.waf === undefined ? plan.wafOn : rule.waf === 'on';
  }
  return plan.wafOn;
}

/** Runs the previous WAF: the managed package's signatures, then the OWASP package. */
export function runLegacy(plan: LegacyPlan, view: RequestView): RunOutcome {
  if (!legacyOnFor(plan, view)) return { events: [] };
  const url = view.fullUrl;
  const variant = plan.overrides.find((o) => o.urls.some((m) => m(url)))?.variant ?? plan.base;
  const frame: EventFrame = { source: 'waf', waf: 'previous', phase: null, rulesetId: MANAGED_PACKAGE_ID };
  const out = runSignatures(variant.signatures, view, frame);
  if (out.terminal || !variant.crs) return out;
  const owasp = runCrs(variant.crs, view, { ...frame, rulesetId: OWASP_PACKAGE_ID });
  return {
    events: [...out.events, ...owasp.events],
    ...(owasp.terminal ? { terminal: owasp.terminal } : {}),
  };
}
