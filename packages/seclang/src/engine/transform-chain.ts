// Transformation chains as a shared prefix tree: `none,urlDecodeUni` and
// `none,urlDecodeUni,lowercase` share their first node. Results are cached per transaction, at two
// levels: each distinct string gets one record (`ValueRec`) holding, by chain node id, the record of
// the chain's result, and, by transformation, the record of that single step's result. The step
// cache makes `lowercase` of a value one computation whichever chain prefix led to it (most steps
// leave a value unchanged, so many prefixes end at the same string). Transformations are pure
// functions of their input, so sharing their results is exact.

import { CLASS_OF } from '../regex/prefilter.ts';
import { getTransformation } from '../transformations/index.ts';
import type { Transaction, TransformationDef, TransformChain } from '../types.ts';
import { identityUnless, keepsClasses, transferOf, transferShortcut } from './class-transfer.ts';

const nodes = new Map<string, TransformChain>();
const steps = new Map<TransformationDef, number>();
const paths = new WeakMap<TransformChain, TransformChain[]>();

function stepOf(def: TransformationDef | undefined): number {
  if (!def) return -1;
  let id = steps.get(def);
  if (id === undefined) {
    id = steps.size;
    steps.set(def, id);
  }
  return id;
}

export function chainFor(names: readonly string[]): TransformChain | undefined {
  let node: TransformChain | undefined;
  let key = '';
  for (const name of names) {
    key = key ? `${key},${name}` : name;
    let next = nodes.get(key);
    if (!next) {
      const def = getTransformation(name);
      const transfer = Int32Array.from([...(node?.transfer ?? []), ...transferOf(def?.name)]);
      const keep = identityUnless(def?.name);
      const [triggerLo, triggerHi, baseLo, baseHi] = transferShortcut(transfer);
      next = {
        id: nodes.size,
        step: stepOf(def),
        names: key,
        transfer,
        triggerLo,
        triggerHi,
        baseLo,
        baseHi,
        keeps: keep !== undefined,
        sameClasses: keepsClasses(def?.name),
        keepLo: keep?.[0] ?? 0,
        keepHi: keep?.[1] ?? 0,
        parent: node,
        def,
      };
      nodes.set(key, next);
    }
    node = next;
  }
  return node;
}

/** One distinct string of a transaction and what is known about it. */
export class ValueRec {
  /** By transformation step id: the record of this value after that one transformation. */
  readonly step: Array<ValueRec | undefined> = [];
  /** Character-class presence bits of `s` (see regex/prefilter.ts); computed on first use. */
  lo = 0;
  hi = 0;
  hasBits = false;
  /** Bit `link.missBit` set: that link is known not to match this value (see evaluate-rule.ts). */
  misses: Int32Array | undefined = undefined;

  constructor(readonly s: string) {}
}

/** Fills the record's character-class bits. */
export function setClassBits(rec: ValueRec): void {
  const s = rec.s;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255) {
      lo = -1;
      hi = -1;
      break;
    }
    const k = CLASS_OF[c]!;
    if (k < 32) lo |= 1 << k;
    else hi |= 1 << (k - 32);
  }
  rec.lo = lo;
  rec.hi = hi;
  rec.hasBits = true;
}

/** The record of `value` in this transaction: shared with other requests when it is short. */
export function recFor(tx: Transaction, value: string): ValueRec {
  const shared = tx.ruleset.values;
  if (value.length <= shared.maxLength) return shared.rec(value);
  let rec = tx.transformCache.get(value);
  if (!rec) {
    rec = new ValueRec(value);
    tx.transformCache.set(value, rec);
  }
  return rec;
}

/** The record of `input`'s value after the one transformation of `node`, computed once. */
export function applyStep(node: TransformChain, input: ValueRec): ValueRec {
  const def = node.def;
  if (!def) return input;
  const step = node.step;
  const known = input.step[step];
  if (known !== undefined) return known;
  let out = input;
  if (node.keeps) {
    if (!input.hasBits) setClassBits(input);
    if (((input.lo & node.keepLo) | (input.hi & node.keepHi)) === 0) {
      input.step[step] = input;
      return input;
    }
  }
  const s = def.transform(input.s);
  if (s !== input.s) {
    out = new ValueRec(s);
    if (node.sameClasses && input.hasBits) {
      out.lo = input.lo;
      out.hi = input.hi;
      out.hasBits = true;
    }
  }
  input.step[step] = out;
  return out;
}

/**
 * The record of `rec`'s value after `chain`: a walk through the per-step caches, so each
 * transformation of a given string runs once per transaction whichever chain reaches it.
 */
export function applyChain(chain: TransformChain, rec: ValueRec): ValueRec {
  return applyStep(chain, chain.parent ? applyChain(chain.parent, rec) : rec);
}

/** The nodes from the root to `chain`, for multiMatch (which tests the value after each step). */
export function chainPath(chain: TransformChain): readonly TransformChain[] {
  let path = paths.get(chain);
  if (!path) {
    path = [];
    for (let n: TransformChain | undefined = chain; n; n = n.parent) path.unshift(n);
    paths.set(chain, path);
  }
  return path;
}
