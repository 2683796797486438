// Static check for catastrophic backtracking. We build the position (Glushkov) automaton of the
// pattern and refuse it when
//  - it is exponentially ambiguous: some state has two different paths back to itself on the
//    same input ((a+)+, (a|a)*, (\w+\s?)+), found as a strongly connected component of the
//    pair automaton that holds both a diagonal and an off-diagonal pair; or
//  - three different loops read a shared character one right after the other (\d+\d+\d+),
//    which makes the work grow with the cube of the input length.
// Bounded repetitions are approximated by at most two copies (plus a loop when unbounded),
// which only adds paths, so the check errs on the side of refusing.

import { type CharSet, intersect, intersects } from './char-set.ts';
import type { RegexNode } from './regex-reader.ts';

const MAX_POSITIONS = 400;
const MAX_PAIR_EDGES = 2_000_000;

class TooComplex extends Error {}

interface Info {
  readonly nullable: boolean;
  readonly first: readonly number[];
  readonly last: readonly number[];
}

class Positions {
  readonly sets: CharSet[] = [];
  readonly follow: Set<number>[] = [];
  /** Innermost loop (star copy) holding each position, or -1. */
  readonly loopOf: number[] = [];
  private loops = 0;
  private currentLoop = -1;

  /** Transitions added twice by different constructs ((a*)*): two paths over the same input. */
  readonly duplicates: [number, number][] = [];

  private link(from: readonly number[], to: readonly number[]): void {
    for (const a of from) {
      const set = this.follow[a];
      for (const b of to) {
        if (set?.has(b)) this.duplicates.push([a, b]);
        else set?.add(b);
      }
    }
  }

  build(node: RegexNode): Info {
    switch (node.t) {
      case 'set': {
        if (this.sets.length >= MAX_POSITIONS) throw new TooComplex();
        const id = this.sets.length;
        this.sets.push(node.set);
        this.follow.push(new Set());
        this.loopOf.push(this.currentLoop);
        return { nullable: false, first: [id], last: [id] };
      }
      case 'empty':
        return { nullable: true, first: [], last: [] };
      case 'cat':
        return node.items.reduce<Info>((acc, item) => this.concat(acc, this.build(item)), {
          nullable: true,
          first: [],
          last: [],
        });
      case 'alt': {
        const parts = node.items.map((i) => this.build(i));
        return {
          nullable: parts.some((p) => p.nullable),
          first: parts.flatMap((p) => p.first),
          last: parts.flatMap((p) => p.last),
        };
      }
      case 'rep':
        return this.repeat(node.body, node.min, node.max);
    }
  }

  private concat(a: Info, b: Info): Info {
    this.link(a.last, b.first);
    return {
      nullable: a.nullable && b.nullable,
      first: a.nullable ? [...a.first, ...b.first] : a.first,
      last: b.nullable ? [...a.last, ...b.last] : b.last,
    };
  }

  private repeat(body: RegexNode, min: number, max: number): Info {
    let acc: Info = { nullable: true, first: [], last: [] };
    const mandatory = Math.min(min, 2);
    const unbounded = max === Number.POSITIVE_INFINITY;
    const outer = this.currentLoop;
    // The copies of an unbounded repetition (`x+` = x x*) all belong to its loop.
    if (unbounded) this.currentLoop = this.loops++;
    for (let k = 0; k < mandatory; k++) acc = this.concat(acc, this.build(body));
    if (unbounded) {
      const star = this.build(body);
      this.currentLoop = outer;
      this.link(star.last, star.first);
      return this.concat(acc, { nullable: true, first: star.first, last: star.last });
    }
    const optional = Math.min(max - mandatory, 2);
    for (let k = 0; k < optional; k++) {
      const copy = this.build(body);
      acc = this.concat(acc, { nullable: true, first: copy.first, last: copy.last });
    }
    return acc;
  }
}

/** A duplicated transition p→q on a cycle (q reaches p) makes the ambiguity exponential. */
function duplicateOnCycle(pos: Positions): boolean {
  for (const [p, q] of pos.duplicates) {
    const seen = new Set<number>([q]);
    const todo = [q];
    while (todo.length > 0) {
      const x = todo.pop() as number;
      if (x === p) return true;
      for (const y of pos.follow[x] ?? []) {
        if (!seen.has(y)) {
          seen.add(y);
          todo.push(y);
        }
      }
    }
  }
  return false;
}

/** Iterative Tarjan over the pair automaton; true when an SCC mixes diagonal and off-diagonal pairs. */
function exponentiallyAmbiguous(pos: Positions): boolean {
  const n = pos.sets.length;
  const follow = pos.follow.map((s) => [...s]);
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  let counter = 0;
  let edges = 0;
  const successors = (node: number): number[] => {
    const p = Math.floor(node / n);
    const q = node % n;
    const out: number[] = [];
    for (const a of follow[p] ?? []) {
      for (const b of follow[q] ?? []) {
        if (++edges > MAX_PAIR_EDGES) throw new TooComplex();
        if (intersects(pos.sets[a] as CharSet, pos.sets[b] as CharSet)) out.push(a * n + b);
      }
    }
    return out;
  };
  for (let d = 0; d < n; d++) {
    const root = d * n + d;
    if (index.has(root)) continue;
    const work: { node: number; succ: number[]; i: number }[] = [];
    const open = (node: number) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, succ: successors(node), i: 0 });
    };
    open(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: number; succ: number[]; i: number };
      if (frame.i < frame.succ.length) {
        const next = frame.succ[frame.i++] as number;
        if (!index.has(next)) open(next);
        else if (onStack.has(next))
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(next) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      let diagonal = false;
      let offDiagonal = false;
      for (;;) {
        const m = stack.pop() as number;
        onStack.delete(m);
        if (Math.floor(m / n) === m % n) diagonal = true;
        else offDiagonal = true;
        if (m === frame.node) break;
      }
      if (diagonal && offDiagonal) return true;
    }
  }
  return false;
}

/**
 * Three loops in a row that can all read one character (\d+\d+\d+, .*\s*.*): the work grows
 * with the cube of the input. Two such loops (\s+.*) are common in real rules and accepted.
 */
function adjacentOverlappingLoops(pos: Positions): boolean {
  const next = (p: number): number[] => {
    const loop = pos.loopOf[p] ?? -1;
    if (loop < 0) return [];
    return [...(pos.follow[p] ?? [])].filter((q) => {
      const other = pos.loopOf[q] ?? -1;
      return other >= 0 && other !== loop && intersects(pos.sets[p] as CharSet, pos.sets[q] as CharSet);
    });
  };
  for (let p = 0; p < pos.sets.length; p++) {
    for (const q of next(p)) {
      const pq = intersect(pos.sets[p] as CharSet, pos.sets[q] as CharSet);
      for (const r of next(q)) {
        if (pos.loopOf[r] !== pos.loopOf[p] && intersects(pq, pos.sets[r] as CharSet)) return true;
      }
    }
  }
  return false;
}

/** The reason a pattern is refused, or undefined when it is safe to run on a backtracking engine. */
export function checkBacktracking(tree: RegexNode): string | undefined {
  const pos = new Positions();
  try {
    pos.build(tree);
    if (duplicateOnCycle(pos) || exponentiallyAmbiguous(pos)) {
      return 'regex may backtrack catastrophically: a repeated part can match the same text in more than one way';
    }
  } catch (e) {
    if (e instanceof TooComplex) return 'regex is too complex to check for catastrophic backtracking';
    throw e;
  }
  if (adjacentOverlappingLoops(pos)) {
    return 'regex may backtrack excessively: three adjacent repetitions can match the same characters';
  }
  return undefined;
}
