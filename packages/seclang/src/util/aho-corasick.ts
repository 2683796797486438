// Aho–Corasick automaton for `@pm`/`@pmFromFile`: case-insensitive (ASCII) substring search over
// binary strings. The root has a dense 256-entry table; deeper states use small maps.

export class AhoCorasick {
  private readonly root = new Int32Array(256);
  private readonly next: Array<Map<number, number>> = [new Map()];
  private fail: Int32Array = new Int32Array(1);
  private readonly out: Array<string | undefined> = [undefined];

  constructor(patterns: readonly string[]) {
    for (const p of patterns) if (p.length > 0) this.add(p);
    this.build();
  }

  private add(pattern: string): void {
    let s = 0;
    for (let i = 0; i < pattern.length; i++) {
      const c = lower(pattern.charCodeAt(i));
      let t = s === 0 && c < 256 ? this.root[c]! : this.next[s]!.get(c);
      if (!t) {
        t = this.next.length;
        this.next.push(new Map());
        this.out.push(undefined);
        if (s === 0 && c < 256) this.root[c] = t;
        else this.next[s]!.set(c, t);
      }
      s = t;
    }
    this.out[s] ??= pattern;
  }

  private build(): void {
    this.fail = new Int32Array(this.next.length);
    const queue: number[] = [];
    for (let c = 0; c < 256; c++) if (this.root[c]) queue.push(this.root[c]!);
    for (const [, t] of this.next[0]!) queue.push(t);
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      for (const [c, t] of this.next[s]!) {
        queue.push(t);
        let f = this.fail[s]!;
        let ft = this.step(f, c);
        while (ft < 0 && f !== 0) {
          f = this.fail[f]!;
          ft = this.step(f, c);
        }
        this.fail[t] = ft > 0 && ft !== t ? ft : 0;
        this.out[t] ??= this.out[this.fail[t]!];
      }
    }
  }

  /** The transition from `s` on `c`, or -1 (the root answers 0 for "stay"). */
  private step(s: number, c: number): number {
    if (s === 0) return c < 256 ? this.root[c]! : (this.next[0]!.get(c) ?? 0);
    return this.next[s]!.get(c) ?? -1;
  }

  /** The first pattern found in `input` (by end position), or undefined. */
  search(input: string): string | undefined {
    let s = 0;
    const root = this.root;
    for (let i = 0; i < input.length; i++) {
      const c = lower(input.charCodeAt(i));
      if (s === 0) {
        s = c < 256 ? root[c]! : 0;
      } else {
        let t = this.next[s]!.get(c);
        while (t === undefined && s !== 0) {
          s = this.fail[s]!;
          t = s === 0 ? (c < 256 ? root[c]! : 0) : this.next[s]!.get(c);
        }
        s = t ?? 0;
      }
      if (s !== 0) {
        const hit = this.out[s];
        if (hit !== undefined) return hit;
      }
    }
    return undefined;
  }
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}
