import type { LegacyWafConfig } from '../legacy-config.ts';
import type { CompileContext } from './compile-context.ts';
import { type CompiledExpression, compileExpression, matchedFields } from './expressions.ts';
import type { RequestView } from './request.ts';
import { type EventAction, isTerminal, type RuleEvent, type Terminal } from './verdict.ts';

/** A firewall rule (the previous product, before custom rules) ready to run. */
export interface CompiledFirewallRule {
  id: string;
  action: string;
  products: string[];
  description: string;
  expr: CompiledExpression;
}

export interface FirewallOutcome {
  events: RuleEvent[];
  terminal?: Terminal;
  /** Products a `bypass` rule exempted this request from (`waf`: the previous WAF managed rules). */
  bypassed: Set<string>;
}

export function compileFirewallRules(ctx: CompileContext, config: LegacyWafConfig): CompiledFirewallRule[] {
  const out: CompiledFirewallRule[] = [];
  for (const r of config.firewallRules) {
    if (r.paused) continue;
    try {
      out.push({
        id: r.id,
        action: r.action,
        products: r.products,
        description: r.description,
        expr: compileExpression(r.expression),
      });
    } catch (error) {
      ctx.warnings.push(`firewall rule ${r.id}: ${(error as Error).message}`);
    }
  }
  return out;
}

/**
 * Firewall rules in priority order: block and challenges end the request, `log` records, `allow` ends the
 * firewall rules (not the WAF), `bypass` exempts the request from the listed products.
 */
export function runFirewallRules(rules: readonly CompiledFirewallRule[], view: RequestView): FirewallOutcome {
  const events: RuleEvent[] = [];
  const bypassed = new Set<string>();
  const ctx = view.rules;
  for (const rule of rules) {
    if (!rule.expr.filter.execute(ctx)) continue;
    const event: RuleEvent = {
      source: 'firewallRules',
      action: rule.action as EventAction,
      waf: null,
      phase: null,
      rulesetId: null,
      ruleId: rule.id,
      description: rule.description,
      matchedData: matchedFields(rule.expr, ctx),
    };
    events.push(event);
    if (isTerminal(rule.action)) return { events, terminal: { action: rule.action, event }, bypassed };
    if (rule.action === 'allow') break;
    if (rule.action === 'bypass') for (const p of rule.products) bypassed.add(p);
  }
  return { events, bypassed };
}
