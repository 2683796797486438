import type { Queryable } from '@cairn/kit';
import { atLeast } from '../api/zones/plans.ts';
import type { Zone } from '../api/zones/store.ts';
import { readUrlNormalization, type UrlNormalization } from '../api/zones/url-normalization.ts';
import { activeWafs, entrypointRules } from './active-wafs.ts';
import type { CompileContext } from './compile-context.ts';
import type { CrsProfile } from './crs-engines.ts';
import { type CompiledFirewallRule, compileFirewallRules, runFirewallRules } from './firewall-rules.ts';
import { compileLegacy, type LegacyPlan, runLegacy } from './legacy-waf.ts';
import { type CompiledPhase, compilePhase, newSkipState, runPhase } from './new-waf.ts';
import type { RequestView } from './request.ts';
import type { RuleEvent, Terminal, Verdict } from './verdict.ts';

/** Everything the data plane does for one zone, compiled: built once, run for every request. */
export interface ZonePlan {
  zone: Zone;
  /** The zone's URL normalisation: what the rules see and what the origin is sent. */
  urlNormalization: UrlNormalization;
  custom?: CompiledPhase;
  firewallRules: CompiledFirewallRule[];
  managed?: CompiledPhase;
  legacy?: LegacyPlan;
  /** The order the two WAFs run in (validation mode: the new one, then the previous one). */
  order: ('managed' | 'legacy')[];
  /** False when nothing inspects requests: the proxy then streams bodies straight through. */
  inspects: boolean;
  /** The CRS engines the plan may run (their profiles): what a worker of the pool loads for it. */
  crsProfiles: CrsProfile[];
  warnings: string[];
}

/** Reads a zone's configuration and compiles it (loads a CRS engine the first time a profile is met). */
export async function compileZonePlan(db: Queryable, context: CompileContext, zone: Zone): Promise<ZonePlan> {
  const crsProfiles: CrsProfile[] = [];
  const ctx: CompileContext = {
    ...context,
    engines: {
      get: (profile) => {
        crsProfiles.push(profile);
        return context.engines.get(profile);
      },
    },
  };
  const wafs = await activeWafs(db, ctx.catalogue, zone);
  const custom = await entrypointRules(db, zone.id, 'http_request_firewall_custom');
  const plan: ZonePlan = {
    zone,
    urlNormalization: await readUrlNormalization(db, zone.id),
    firewallRules: compileFirewallRules(ctx, wafs.legacy.config),
    order: wafs.order,
    inspects: false,
    crsProfiles,
    warnings: ctx.warnings,
  };
  if (zone.paused) return plan; // a paused zone is proxied without security features
  if (custom) plan.custom = compilePhase(ctx, 'http_request_firewall_custom', 'firewallCustom', custom);
  if (wafs.managed.enabled && wafs.managed.entrypoint) {
    plan.managed = compilePhase(
      ctx,
      'http_request_firewall_managed',
      'firewallManaged',
      wafs.managed.entrypoint,
    );
  }
  if (wafs.legacy.enabled) plan.legacy = compileLegacy(ctx, wafs.legacy.config, atLeast(zone.plan, 'pro'));
  plan.inspects =
    (plan.custom?.rules.length ?? 0) > 0 ||
    plan.firewallRules.length > 0 ||
    (plan.managed?.rules.length ?? 0) > 0 ||
    (plan.legacy !== undefined && (plan.legacy.wafOn || plan.legacy.pageRules.some((p) => p.waf === 'on')));
  return plan;
}

/**
 * Runs a zone's plan on a request: custom rules (`http_request_firewall_custom`), firewall rules, then the
 * WAFs in the zone's order — the new WAF Managed Rules (`http_request_firewall_managed`) and the previous
 * WAF managed rules. A terminating action ends the request, except in validation mode, where both WAFs
 * always run (so both record their events) and the first terminating decision, the new WAF's, answers.
 */
export function evaluatePlan(plan: ZonePlan, view: RequestView): Verdict {
  const events: RuleEvent[] = [];
  const decisions: Terminal[] = [];
  const done = (): Verdict => ({ events, decisions, ...(decisions[0] ? { terminal: decisions[0] } : {}) });
  if (!plan.inspects) return done();
  const skip = newSkipState();
  if (plan.custom) {
    const out = runPhase(plan.custom, view, skip);
    events.push(...out.events);
    if (out.terminal) decisions.push(out.terminal);
    if (out.terminal) return done();
  }
  const fw = runFirewallRules(plan.firewallRules, view);
  events.push(...fw.events);
  if (fw.terminal) {
    decisions.push(fw.terminal);
    return done();
  }
  for (const waf of plan.order) {
    if (waf === 'managed') {
      if (!plan.managed || skip.phases.has('http_request_firewall_managed')) continue;
      const out = runPhase(plan.managed, view, skip);
      events.push(...out.events);
      if (out.terminal) decisions.push(out.terminal);
    } else {
      if (!plan.legacy || fw.bypassed.has('waf') || skip.products.has('waf')) continue;
      const out = runLegacy(plan.legacy, view);
      events.push(...out.events);
      if (out.terminal) decisions.push(out.terminal);
    }
  }
  return done();
}
