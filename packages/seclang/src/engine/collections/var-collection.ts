// A mutable variable collection (TX, and the persistent IP/GLOBAL/… records): keys are
// case-insensitive, values strings. Persistent records also keep per-variable expiry times.

import type { Entry } from '../../types.ts';

const EMPTY: readonly Entry[] = [];

export class VarCollection {
  private readonly map = new Map<string, Entry>();
  private list: Entry[] | undefined;
  private expiry: Map<string, number> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** `name` must be lower-case when called from the hot path; other callers may pass any case. */
  get(name: string): string | undefined {
    const hit = this.map.get(name);
    if (!this.expiry) {
      if (hit !== undefined) return hit.value;
      const lower = name.toLowerCase();
      return lower === name ? undefined : this.map.get(lower)?.value;
    }
    const key = name.toLowerCase();
    if (this.expiry && this.expired(key)) return undefined;
    return this.map.get(key)?.value;
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    this.map.set(key, { key, value });
    this.list = undefined;
  }

  delete(name: string): void {
    if (this.map.delete(name.toLowerCase())) this.list = undefined;
  }

  /** expirevar: the variable disappears `seconds` from now. */
  expire(name: string, seconds: number): void {
    this.expiry ??= new Map();
    this.expiry.set(name.toLowerCase(), this.now() + seconds * 1000);
  }

  private expired(key: string): boolean {
    const at = this.expiry?.get(key);
    if (at === undefined || at > this.now()) return false;
    this.map.delete(key);
    this.expiry?.delete(key);
    this.list = undefined;
    return true;
  }

  entries(): readonly Entry[] {
    if (this.expiry) for (const key of [...this.expiry.keys()]) this.expired(key);
    this.list ??= [...this.map.values()];
    return this.list;
  }

  byKey(lowerKey: string): readonly Entry[] {
    if (this.expiry && this.expired(lowerKey)) return EMPTY;
    const e = this.map.get(lowerKey);
    return e ? [e] : EMPTY;
  }

  get size(): number {
    return this.map.size;
  }
}
