// Process-local store for `initcol` collections (IP, GLOBAL, …): bounded (least recently used
// records are dropped) and expiring, so a flood of client addresses cannot grow memory without end.

import { VarCollection } from './var-collection.ts';

interface Record {
  collection: VarCollection;
  touched: number;
}

export class PersistentStore {
  private readonly records = new Map<string, Record>();

  constructor(
    private readonly maxRecords = 10_000,
    private readonly timeoutSeconds = 600,
    private readonly now: () => number = Date.now,
  ) {}

  open(name: string, key: string): VarCollection {
    const id = `${name.toLowerCase()}\u0000${key}`;
    const now = this.now();
    const hit = this.records.get(id);
    if (hit && now - hit.touched < this.timeoutSeconds * 1000) {
      this.records.delete(id);
      hit.touched = now;
      this.records.set(id, hit);
      return hit.collection;
    }
    const record = { collection: new VarCollection(this.now), touched: now };
    this.records.delete(id);
    this.records.set(id, record);
    while (this.records.size > this.maxRecords) {
      const oldest = this.records.keys().next().value;
      if (oldest === undefined) break;
      this.records.delete(oldest);
    }
    return record.collection;
  }

  get size(): number {
    return this.records.size;
  }
}
