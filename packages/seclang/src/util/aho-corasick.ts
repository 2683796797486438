// Aho–Corasick automaton for `@pm`/`@pmFromFile`: case-insensitive (ASCII) substring search over
// binary strings, compiled into a DFA over the alphabet the phrases use (every other byte shares
// one class), so a search costs one table lookup per input byte.

export class AhoCorasick {
  /** byte → input class; both cases of a letter share one */
  private readonly classes = new Uint8Array(256);
  private readonly width: number;
  /**
   * The DFA as row offsets: entry (row + class) is the next state's row offset (state × width),
   * or −(offset + 1) when a phrase ends in that state.
   */
  private readonly delta: Int32Array;
  private readonly out: Array<string | undefined>;

  constructor(patterns: readonly string[]) {
    const phrases = patterns.filter((p) => p.length > 0);
    let width = 1;
    for (const p of phrases) {
      for (let i = 0; i < p.length; i++) {
        const c = lower(p.charCodeAt(i));
        if (c < 256 && this.classes[c] === 0) this.classes[c] = width++;
      }
    }
    this.width = width;
    // trie
    const next: Array<Map<number, number>> = [new Map()];
    const out: Array<string | undefined> = [undefined];
    for (const p of phrases) {
      if ([...p].some((ch) => lower(ch.charCodeAt(0)) > 255)) continue;
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const k = this.classes[lower(p.charCodeAt(i))]!;
        let t = next[s]!.get(k);
        if (t === undefined) {
          t = next.length;
          next.push(new Map());
          out.push(undefined);
          next[s]!.set(k, t);
        }
        s = t;
      }
      out[s] ??= p;
    }
    // DFA by breadth-first search, resolving failure links into the table
    const delta = new Int32Array(next.length * width);
    const fail = new Int32Array(next.length);
    const queue: number[] = [];
    for (const [k, t] of next[0]!) {
      delta[k] = t;
      queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      out[s] ??= out[fail[s]!];
      for (let k = 0; k < width; k++) {
        const t = next[s]!.get(k);
        if (t === undefined) delta[s * width + k] = delta[fail[s]! * width + k]!;
        else {
          fail[t] = delta[fail[s]! * width + k]!;
          delta[s * width + k] = t;
          queue.push(t);
        }
      }
    }
    for (let i = 0; i < delta.length; i++) {
      const t = delta[i]!;
      delta[i] = out[t] === undefined ? t * width : -(t * width) - 1;
    }
    for (let c = 65; c <= 90; c++) this.classes[c] = this.classes[c + 32]!;
    this.delta = delta;
    this.out = out;
  }

  /** The first pattern found in `input` (by end position), or undefined. */
  search(input: string): string | undefined {
    const classes = this.classes;
    const delta = this.delta;
    const n = input.length;
    let row = 0;
    for (let i = 0; i < n; i++) {
      const c = input.charCodeAt(i);
      row = delta[row + (c < 256 ? classes[c]! : 0)]!;
      if (row < 0) return this.out[(-row - 1) / this.width];
    }
    return undefined;
  }
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}
