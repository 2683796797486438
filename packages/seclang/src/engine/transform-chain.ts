// Transformation chains as a shared prefix tree: `none,urlDecodeUni` and
// `none,urlDecodeUni,lowercase` share their first node, and each node's results are cached per
// transaction, keyed by the input value.

import { getTransformation } from '../transformations/index.ts';
import type { TransformChain, Transaction } from '../types.ts';

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

/** The value after the whole chain, computed once per (node, value) per transaction. */
export function applyChain(tx: Transaction, chain: TransformChain, value: string): string {
  let cache = tx.transformCache[chain.id];
  if (!cache) {
    cache = new Map();
    tx.transformCache[chain.id] = cache;
  }
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  const input = chain.parent ? applyChain(tx, chain.parent, value) : value;
  const out = chain.def ? chain.def.transform(input) : input;
  cache.set(value, out);
  return out;
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
