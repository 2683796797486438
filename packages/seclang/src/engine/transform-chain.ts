// Transformation chains as a shared prefix tree: `none,urlDecodeUni` and
// `none,urlDecodeUni,lowercase` share their first node. Results are cached per transaction: each
// distinct input value gets one slot array indexed by node id.

import { getTransformation } from '../transformations/index.ts';
import type { Transaction, TransformChain } from '../types.ts';

const nodes = new Map<string, TransformChain>();
const paths = new WeakMap<TransformChain, TransformChain[]>();

export function chainFor(names: readonly string[]): TransformChain | undefined {
  let node: TransformChain | undefined;
  let key = '';
  for (const name of names) {
    key = key ? `${key},${name}` : name;
    let next = nodes.get(key);
    if (!next) {
      next = { id: nodes.size, names: key, parent: node, def: getTransformation(name) };
      nodes.set(key, next);
    }
    node = next;
  }
  return node;
}

export type Slots = Array<string | undefined>;

/** The cache slots of `value` in this transaction. */
export function slotsFor(tx: Transaction, value: string): Slots {
  let slots = tx.transformCache.get(value);
  if (!slots) {
    slots = [];
    tx.transformCache.set(value, slots);
  }
  return slots;
}

/** The value after `chain`, using and filling the value's slots. */
export function applyWithSlots(chain: TransformChain, value: string, slots: Slots): string {
  const hit = slots[chain.id];
  if (hit !== undefined) return hit;
  const input = chain.parent ? applyWithSlots(chain.parent, value, slots) : value;
  const out = chain.def ? chain.def.transform(input) : input;
  slots[chain.id] = out;
  return out;
}

/** The value after the whole chain, computed once per (node, value) per transaction. */
export function applyChain(tx: Transaction, chain: TransformChain, value: string): string {
  return applyWithSlots(chain, value, slotsFor(tx, value));
}

/** For multiMatch: the raw value and the value after each step that changed it. */
export function chainSteps(tx: Transaction, chain: TransformChain | undefined, value: string): string[] {
  const out = [value];
  if (!chain) return out;
  let path = paths.get(chain);
  if (!path) {
    path = [];
    for (let n: TransformChain | undefined = chain; n; n = n.parent) path.unshift(n);
    paths.set(chain, path);
  }
  let last = value;
  for (const node of path) {
    const next = applyChain(tx, node, value);
    if (next !== last) out.push(next);
    last = next;
  }
  return out;
}
