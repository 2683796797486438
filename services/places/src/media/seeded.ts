import { createHash } from 'node:crypto';

/**
 * A deterministic stream of numbers from a text seed (SHA-256 of the seed, then mulberry32), so a place's
 * derived tips and photos, and a photo's pixels, are the same on every machine and every call.
 */
export class Seeded {
  private state: number;

  constructor(seed: string) {
    this.state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  }

  /** [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** 24 hexadecimal digits from the stream: the ids of a place's derived tips and photos. */
  hex24(): string {
    let out = '';
    for (let i = 0; i < 3; i++)
      out += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return out;
  }
}
