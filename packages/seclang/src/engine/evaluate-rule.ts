// Evaluates one rule (all links of its chain) against the transaction. A link matches when the
// operator holds for at least one of its values; each match runs the link's non-disruptive
// actions (setvar, ctl…) at once, as ModSecurity does, before the next link is evaluated.

import { type Prefilter, passes } from '../regex/prefilter.ts';
import type { Rule, Transaction, TransformChain } from '../types.ts';
import { transfer, transferredHi, transferredLo } from './class-transfer.ts';
import { removalsFor, setUnionBits, targetName, targetValues } from './targets.ts';
import { applyChain, applyStep, chainPath, setClassBits, type ValueRec } from './transform-chain.ts';

/** Bytes past which a value's evaluation is preceded by a budget check. */
const LARGE_VALUE = 4096;

/** A large value can cost a regex milliseconds: the budget is checked before each one too. */
function spentBefore(tx: Transaction, value: string): boolean {
  if (value.length <= LARGE_VALUE || !tx.budget?.spent()) return false;
  tx.timedOut = true;
  return true;
}

function onMatch(tx: Transaction, link: Rule, name: string, value: string): void {
  tx.setMatched(name, value);
  const actions = link.actions;
  for (let i = 0; i < actions.length; i++) actions[i]!.fn(tx, link);
}

const NO_STEPS = new Int32Array(0);

/** Whether `rec` is known not to match the link of `bit` (value-cache.ts: shared between requests). */
function knownMiss(rec: ValueRec, bit: number): boolean {
  const m = rec.misses;
  return m !== undefined && (m[bit >> 5]! & (1 << (bit & 31))) !== 0;
}

function markMiss(tx: Transaction, rec: ValueRec, bit: number): void {
  rec.misses ??= new Int32Array(tx.ruleset.missWords);
  rec.misses[bit >> 5]! |= 1 << (bit & 31);
}

/** Whether a value with raw class bits (lo, hi) may pass `pre` once transformed by `chain`. */
function mayPass(
  pre: Prefilter,
  chain: TransformChain | undefined,
  steps: Int32Array,
  lo: number,
  hi: number,
): boolean {
  if (chain === undefined) return passes(pre, lo, hi);
  if (((lo & chain.triggerLo) | (hi & chain.triggerHi)) === 0) {
    return passes(pre, lo | chain.baseLo, hi | chain.baseHi);
  }
  transfer(steps, lo, hi);
  return passes(pre, transferredLo(), transferredHi());
}

/** multiMatch: the operator on the raw value, then on the value after each step that changed it. */
function matchEachStep(
  tx: Transaction,
  link: Rule,
  raw: ValueRec,
  path: ReturnType<typeof chainPath> | undefined,
  plan: Parameters<typeof targetName>[0],
  key: Parameters<typeof targetName>[1],
): boolean {
  const pre = link.prefilter;
  let matched = false;
  let last = raw;
  for (let k = -1; k < (path === undefined ? 0 : path.length); k++) {
    const step = k < 0 ? raw : applyStep(path![k]!, last);
    if (k >= 0) {
      const changed = step.s !== last.s;
      last = step;
      if (!changed) continue;
    }
    let hit: boolean;
    if (pre === undefined) hit = link.operator(tx, step.s);
    else {
      if (!step.hasBits) setClassBits(step);
      hit = passes(pre, step.lo, step.hi) && link.operator(tx, step.s);
    }
    if (hit !== link.negated) {
      matched = true;
      onMatch(tx, link, targetName(plan, key), step.s);
    }
  }
  return matched;
}

type TargetPlan = Parameters<typeof targetName>[0];
type Removals = ReturnType<typeof removalsFor>;
type ChainPath = ReturnType<typeof chainPath> | undefined;

/** A plain TX:key (or &TX:key) under a link without transformations or prefilter, read directly. */
function matchTxKey(tx: Transaction, link: Rule, plan: TargetPlan, txKey: string): boolean {
  const value = tx.tx.get(txKey);
  const count = plan.count;
  if (value === undefined && !count) return false;
  const v = count ? (value === undefined ? '0' : '1') : value!;
  if (link.operator(tx, v) === link.negated) return false;
  onMatch(tx, link, count ? plan.name : plan.txName, v);
  return true;
}

const NO_MATCH = 0;
const MATCHED = 1;
/** The time budget ran out before a large value: the whole rule stops, unmatched. */
const OUT_OF_BUDGET = 2;

/**
 * The link over one target's values. With `early` (a prefilter and no negation), what the
 * transformations can make of the raw classes rules out the whole target, or a value, before
 * anything is transformed (`steps`, the transfer of the whole chain, also covers the intermediate
 * values multiMatch tries along `path`). A link with a pure operator remembers, in a value's record,
 * that the value does not match it (`missBit`): the value's next appearance, in this request or a later
 * one, is passed over.
 */
function matchTarget(
  tx: Transaction,
  link: Rule,
  plan: TargetPlan,
  removals: Removals,
  early: boolean,
  steps: Int32Array,
  path: ChainPath,
): number {
  const tv = targetValues(tx, plan, removals);
  const recs = tv.recs;
  if (recs.length === 0) return NO_MATCH;
  const pre = link.prefilter!;
  const chain = link.transform;
  if (early) {
    if (!tv.hasBits) setUnionBits(tv);
    if (!mayPass(pre, chain, steps, tv.lo, tv.hi)) return NO_MATCH;
  }
  const missBit = link.missBit;
  let result = NO_MATCH;
  for (let i = 0; i < recs.length; i++) {
    const raw = recs[i]!;
    if (missBit >= 0 && knownMiss(raw, missBit)) continue;
    if (spentBefore(tx, raw.s)) return OUT_OF_BUDGET;
    if (early) {
      if (!raw.hasBits) setClassBits(raw);
      if (!mayPass(pre, chain, steps, raw.lo, raw.hi)) continue;
    }
    if (link.multiMatch) {
      if (matchEachStep(tx, link, raw, path, plan, tv.keys[i]!)) result = MATCHED;
      else if (missBit >= 0) markMiss(tx, raw, missBit);
      continue;
    }
    // Inline, not a call per value: this is the innermost loop of the engine.
    const rec = chain === undefined ? raw : applyChain(chain, raw);
    let hit: boolean;
    if (link.prefilter === undefined) hit = link.operator(tx, rec.s);
    else {
      if (!rec.hasBits) setClassBits(rec);
      hit = passes(pre, rec.lo, rec.hi) && link.operator(tx, rec.s);
    }
    if (hit !== link.negated) {
      result = MATCHED;
      onMatch(tx, link, targetName(plan, tv.keys[i]!), rec.s);
    } else if (missBit >= 0) markMiss(tx, raw, missBit);
  }
  return result;
}

function evaluateLink(tx: Transaction, link: Rule, starter: Rule): boolean {
  tx.capture = link.capture;
  const plans = link.plans;
  if (plans.length === 0) {
    if (link.operator(tx, '') === link.negated) return false;
    onMatch(tx, link, '', '');
    return true;
  }
  const removals = removalsFor(tx, starter);
  const chain = link.transform;
  const direct = removals === undefined && chain === undefined && link.prefilter === undefined;
  const early = link.prefilter !== undefined && !link.negated;
  const steps = chain === undefined ? NO_STEPS : chain.transfer;
  const path = link.multiMatch && chain !== undefined ? chainPath(chain) : undefined;
  let matched = false;
  for (let t = 0; t < plans.length; t++) {
    const plan = plans[t]!;
    if (direct && plan.txKey !== undefined) {
      if (matchTxKey(tx, link, plan, plan.txKey)) matched = true;
      continue;
    }
    const result = matchTarget(tx, link, plan, removals, early, steps, path);
    if (result === OUT_OF_BUDGET) return false;
    if (result === MATCHED) matched = true;
  }
  return matched;
}

/** True when every link of the rule's chain matched. */
export function evaluateRule(tx: Transaction, rule: Rule): boolean {
  tx.currentRule = rule;
  if (tx.matchedVars.entries.length > 0) tx.matchedVars.clear();
  for (let link: Rule | undefined = rule; link; link = link.chained) {
    if (!evaluateLink(tx, link, rule)) return false;
  }
  return true;
}
