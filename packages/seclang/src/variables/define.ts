// Helpers that build variable definitions from a getter.

import type { Entry, Transaction, VariableDef } from '../types.ts';

interface Keyed {
  readonly entries: readonly Entry[] | (() => readonly Entry[]);
  byKey(lowerKey: string): readonly Entry[];
}

export function scalar(
  name: string,
  get: (tx: Transaction) => string | undefined,
  dynamic = false,
): VariableDef {
  return {
    name,
    kind: 'scalar',
    dynamic,
    entries(tx) {
      const value = get(tx);
      return value === undefined ? [] : [{ key: '', value }];
    },
  };
}

export function collection(
  name: string,
  get: (tx: Transaction) => Keyed | undefined,
  dynamic = false,
): VariableDef {
  return {
    name,
    kind: 'collection',
    dynamic,
    entries(tx) {
      const c = get(tx);
      if (!c) return [];
      return typeof c.entries === 'function' ? c.entries() : c.entries;
    },
    byKey(tx, lowerKey) {
      return get(tx)?.byKey(lowerKey) ?? [];
    },
  };
}

const EMPTY = { entries: [] as Entry[], byKey: () => [] as Entry[] };

/** A collection that is always empty here (response side, GEO without a database). */
export function empty(name: string): VariableDef {
  return collection(name, () => EMPTY);
}
