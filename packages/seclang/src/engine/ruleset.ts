// The compiled rule set: one ordered list per phase (markers appear in every phase, as in
// ModSecurity), jump targets for skipAfter resolved once, and the engine configuration.

import type { Rule, Target, TargetPlan } from '../types.ts';
import { defaultEngineConfig, type EngineConfig } from './config.ts';
import { ValueCache } from './value-cache.ts';

/** A phase list item: a rule, or a marker name. */
export type PhaseItem = Rule | string;

export interface DefaultAction {
  readonly actions: ReadonlyArray<{ name: string; arg: string | undefined }>;
}

export class RuleSet {
  readonly config: EngineConfig = defaultEngineConfig();
  readonly phases: PhaseItem[][] = [[], [], [], [], [], []];
  readonly defaults = new Map<number, DefaultAction>();
  /** Per phase: for the item at index i, where execution continues after its skipAfter. */
  jumps: Int32Array[] = [];
  /** Count of cacheable targets (slots of the per-transaction target cache). */
  targetSlots = 0;
  /** Int32 words of a value's record of links known not to match it (Rule.missBit). */
  missWords = 0;
  /** Records of short values, shared by every request (value-cache.ts). */
  readonly values = new ValueCache();

  addRule(rule: Rule): void {
    const list = this.phases[rule.phase];
    if (!list) throw new Error(`phase ${rule.phase} out of range`);
    list.push(rule);
  }

  addMarker(name: string): void {
    for (let p = 1; p < this.phases.length; p++) this.phases[p]!.push(name);
  }

  rules(): Rule[] {
    const out: Rule[] = [];
    for (const list of this.phases) for (const item of list) if (typeof item !== 'string') out.push(item);
    return out;
  }

  findById(id: number): Rule | undefined {
    return this.rules().find((r) => r.id === id);
  }

  /** Drops every rule for which `predicate` holds. */
  removeRules(predicate: (rule: Rule) => boolean): number {
    let removed = 0;
    for (let p = 0; p < this.phases.length; p++) {
      const before = this.phases[p]!.length;
      this.phases[p] = this.phases[p]!.filter((item) => typeof item === 'string' || !predicate(item));
      removed += before - this.phases[p]!.length;
    }
    return removed;
  }

  /** Resolves skipAfter targets and cache slots; call after the last change to the rule lists. */
  finalize(): void {
    const slots = new Map<string, number>();
    let missBits = 0;
    for (const rule of this.rules()) {
      for (let link: Rule | undefined = rule; link; link = link.chained) {
        link.missBit = link.operator.pure && !link.negated ? missBits++ : -1;
        link.plans = link.targets.map((t): TargetPlan => {
          const name = t.variable.name;
          const key = t.selector.kind === 'key' ? t.selector : undefined;
          const slotOf = (sig: string): number => {
            let slot = slots.get(sig);
            if (slot === undefined) {
              slot = slots.size;
              slots.set(sig, slot);
            }
            return slot;
          };
          const cacheable = !t.variable.dynamic;
          return {
            target: t,
            count: t.count,
            slot: cacheable ? slotOf(targetSignature(t)) : -1,
            baseSlot:
              cacheable && t.exclusions.length > 0 && !t.count
                ? slotOf(targetSignature({ ...t, exclusions: [] }))
                : -1,
            txKey: name === 'TX' && key && t.exclusions.length === 0 ? key.key : undefined,
            name: t.count ? (key ? `&${name}:${key.raw}` : `&${name}`) : name,
            txName: key ? `${name}:${key.raw}` : name,
          };
        });
      }
    }
    this.targetSlots = slots.size;
    this.missWords = (missBits + 31) >> 5;
    this.values.clear();
    this.jumps = this.phases.map((list) => {
      const jumps = new Int32Array(list.length).fill(-1);
      list.forEach((item, i) => {
        if (typeof item === 'string' || item.skipAfter === undefined) return;
        let target = list.length;
        for (let j = i + 1; j < list.length; j++) {
          if (list[j] === item.skipAfter) {
            target = j;
            break;
          }
        }
        jumps[i] = target;
      });
      return jumps;
    });
  }
}

function targetSignature(t: Target): string {
  const sel = t.selector;
  const key = sel.kind === 'all' ? '' : sel.kind === 'key' ? `:${sel.raw}` : `:/${sel.source}/`;
  const ex = t.exclusions.map((x) => (typeof x === 'string' ? x : `/${x.source}/`)).join(',');
  return `${t.count ? '&' : ''}${t.variable.name}${key}!${ex}`;
}
