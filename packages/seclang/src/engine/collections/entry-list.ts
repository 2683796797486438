// An ordered list of key/value entries with duplicate keys (ARGS, REQUEST_HEADERS, FILES…) and a
// lazily built case-insensitive key index.

import type { Entry } from '../../types.ts';

const EMPTY: readonly Entry[] = [];

export class EntryList {
  readonly entries: Entry[];
  private index: Map<string, Entry[]> | undefined;

  constructor(entries: Entry[] = []) {
    this.entries = entries;
  }

  add(key: string, value: string): void {
    this.entries.push({ key, value });
    this.index = undefined;
  }

  clear(): void {
    this.entries.length = 0;
    this.index = undefined;
  }

  byKey(lowerKey: string): readonly Entry[] {
    if (!this.index) {
      this.index = new Map();
      for (const e of this.entries) {
        const k = e.key.toLowerCase();
        const list = this.index.get(k);
        if (list) list.push(e);
        else this.index.set(k, [e]);
      }
    }
    return this.index.get(lowerKey) ?? EMPTY;
  }

  /** The entries' keys as a names collection (`ARGS_NAMES` etc.): key and value are the name. */
  names(): EntryList {
    return new EntryList(this.entries.map((e) => ({ key: e.key, value: e.key })));
  }
}
