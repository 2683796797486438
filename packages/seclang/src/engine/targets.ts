// Resolves a rule's targets to the values it inspects, applying selectors, `!` exclusions and
// ctl: target removals. Lists without dynamic variables are cached per phase and transaction.

import type { Entry, Rule, Target, Transaction } from '../types.ts';
import type { TargetRemoval } from './transaction.ts';

export interface ResolvedTargets {
  readonly values: string[];
  readonly names: string[];
  /** Transformation cache slots of each value, filled on first use. */
  readonly slots: Array<Array<string | undefined> | undefined>;
}

function selectEntries(tx: Transaction, t: Target): readonly Entry[] {
  const v = t.variable;
  const sel = t.selector;
  if (sel.kind === 'all' || v.kind === 'scalar') return v.entries(tx);
  if (sel.kind === 'key') return v.byKey ? v.byKey(tx, v.name === 'XML' ? sel.raw : sel.key) : [];
  return v.entries(tx).filter((e) => sel.re.test(e.key));
}

function excluded(key: string, list: ReadonlyArray<string | RegExp>): boolean {
  const lower = key.toLowerCase();
  for (const x of list) {
    if (typeof x === 'string' ? x === lower : x.test(key)) return true;
  }
  return false;
}

function removedBy(name: string, key: string, removals: readonly TargetRemoval[]): boolean {
  for (const r of removals) {
    if (r.variable !== name) continue;
    if (r.key === undefined) return true;
    if (typeof r.key === 'string' ? r.key === key.toLowerCase() : r.key.test(key)) return true;
  }
  return false;
}

const NONE: ResolvedTargets = { values: [], names: [], slots: [] };

export function resolveTargets(tx: Transaction, rule: Rule, starter: Rule): ResolvedTargets {
  const removals =
    tx.removedTargetsById.length > 0 || tx.removedTargetsByTag.length > 0
      ? tx.targetRemovals(starter)
      : undefined;
  const single = rule.txTarget;
  if (single && !removals) {
    const value = tx.tx.get(single.key);
    if (single.count) return { values: [value === undefined ? '0' : '1'], names: [single.name], slots: [] };
    return value === undefined ? NONE : { values: [value], names: [single.name], slots: [] };
  }
  const slot = rule.targetCacheSlot;
  if (slot >= 0 && !removals) {
    const hit = tx.targetCache[slot];
    if (hit) return hit;
  }
  const values: string[] = [];
  const names: string[] = [];
  for (const t of rule.targets) {
    const name = t.variable.name;
    let entries = selectEntries(tx, t);
    if (t.exclusions.length > 0) entries = entries.filter((e) => !excluded(e.key, t.exclusions));
    if (removals) entries = entries.filter((e) => !removedBy(name, e.key, removals));
    if (t.count) {
      values.push(String(entries.length));
      names.push(t.selector.kind === 'key' ? `&${name}:${t.selector.raw}` : `&${name}`);
      continue;
    }
    for (const e of entries) {
      values.push(e.value);
      names.push(e.key === '' ? name : `${name}:${e.key}`);
    }
  }
  const resolved: ResolvedTargets = { values, names, slots: [] };
  if (slot >= 0 && !removals) tx.targetCache[slot] = resolved;
  return resolved;
}
