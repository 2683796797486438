// Resolves a rule's targets to the values it inspects, applying selectors, `!` exclusions and
// ctl: target removals. Each target is resolved on its own (a rule's values are its targets'
// values in order), so targets shared by many rules (`ARGS`, `REQUEST_COOKIES`…) are resolved once
// per phase and transaction; targets on dynamic variables (TX, MATCHED_VAR…) every time.

import type { Entry, Rule, Target, TargetPlan, Transaction } from '../types.ts';
import type { TargetRemoval } from './transaction.ts';
import { recFor, setClassBits, type ValueRec } from './transform-chain.ts';

/** The values of one target: records of the transaction's value cache and the entries' keys. */
export interface TargetValues {
  readonly recs: ValueRec[];
  /** The entry key of each value ('' for scalars and counts). */
  readonly keys: string[];
  /** The OR of the raw values' class bits (regex/prefilter.ts), once `hasBits`. */
  lo: number;
  hi: number;
  hasBits: boolean;
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

const NONE: TargetValues = { recs: [], keys: [], lo: 0, hi: 0, hasBits: true };
const ONE_KEY = [''];

function values(recs: ValueRec[], keys: string[]): TargetValues {
  return { recs, keys, lo: 0, hi: 0, hasBits: false };
}

/** Fills the target's union of raw class bits. */
export function setUnionBits(tv: TargetValues): void {
  let lo = 0;
  let hi = 0;
  const recs = tv.recs;
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    if (!rec.hasBits) setClassBits(rec);
    lo |= rec.lo;
    hi |= rec.hi;
  }
  tv.lo = lo;
  tv.hi = hi;
  tv.hasBits = true;
}

/** The ctl: target removals that apply to the rule chain started by `starter`, if any. */
export function removalsFor(tx: Transaction, starter: Rule): TargetRemoval[] | undefined {
  return tx.removedTargetsById.length > 0 || tx.removedTargetsByTag.length > 0
    ? tx.targetRemovals(starter)
    : undefined;
}

/** The values of the target of `plan`. */
export function targetValues(
  tx: Transaction,
  plan: TargetPlan,
  removals: readonly TargetRemoval[] | undefined,
): TargetValues {
  const t = plan.target;
  if (!removals) {
    const txKey = plan.txKey;
    if (txKey !== undefined) {
      const value = tx.tx.get(txKey);
      if (t.count) return values([recFor(tx, value === undefined ? '0' : '1')], ONE_KEY);
      if (value === undefined) return NONE;
      return values([recFor(tx, value)], [t.selector.kind === 'key' ? t.selector.raw : txKey]);
    }
  }
  const slot = plan.slot;
  if (slot >= 0 && !removals) {
    const hit = tx.targetCache[slot];
    if (hit) return hit;
  }
  const baseSlot = plan.baseSlot;
  if (baseSlot >= 0 && !removals) {
    // the values without the exclusions, shared when the exclusions leave out nothing
    let base = tx.targetCache[baseSlot];
    if (!base) {
      base = build(tx, selectEntries(tx, t));
      tx.targetCache[baseSlot] = base;
    }
    let keep = base;
    for (let i = 0; i < base.keys.length; i++) {
      if (excluded(base.keys[i]!, t.exclusions)) {
        keep = subset(base, t.exclusions);
        break;
      }
    }
    tx.targetCache[slot] = keep;
    return keep;
  }
  const name = t.variable.name;
  let entries = selectEntries(tx, t);
  if (t.exclusions.length > 0) entries = entries.filter((e) => !excluded(e.key, t.exclusions));
  if (removals) entries = entries.filter((e) => !removedBy(name, e.key, removals));
  const resolved = t.count ? values([recFor(tx, String(entries.length))], ONE_KEY) : build(tx, entries);
  if (slot >= 0 && !removals) tx.targetCache[slot] = resolved;
  return resolved;
}

function build(tx: Transaction, entries: readonly Entry[]): TargetValues {
  if (entries.length === 0) return NONE;
  const recs: ValueRec[] = new Array(entries.length);
  const keys: string[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    recs[i] = recFor(tx, e.value);
    keys[i] = e.key;
  }
  return values(recs, keys);
}

/** The values of `base` whose keys the exclusions do not name. */
function subset(base: TargetValues, exclusions: ReadonlyArray<string | RegExp>): TargetValues {
  const recs: ValueRec[] = [];
  const keys: string[] = [];
  for (let i = 0; i < base.keys.length; i++) {
    if (excluded(base.keys[i]!, exclusions)) continue;
    recs.push(base.recs[i]!);
    keys.push(base.keys[i]!);
  }
  return recs.length === 0 ? NONE : values(recs, keys);
}

/** The MATCHED_VAR_NAME of a value of the plan's target with entry key `key`. */
export function targetName(plan: TargetPlan, key: string): string {
  return key === '' ? plan.name : `${plan.name}:${key}`;
}
