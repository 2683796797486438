// ARGS (query then body arguments), ARGS_GET, ARGS_POST, their _NAMES and ARGS_COMBINED_SIZE.
// Example: SecRule ARGS|ARGS_NAMES "@rx <script" "id:1"
import type { EntryList } from '../engine/collections/entry-list.ts';
import type { Transaction } from '../types.ts';
import { collection, scalar } from './define.ts';

const namesCache = new WeakMap<EntryList, EntryList>();

function names(list: EntryList): EntryList {
  let n = namesCache.get(list);
  if (!n) {
    n = list.names();
    namesCache.set(list, n);
  }
  return n;
}

function combinedSize(tx: Transaction): string {
  let total = 0;
  for (const e of tx.args.entries) total += e.key.length + e.value.length;
  return String(total);
}

export const ARGS = collection('ARGS', (tx) => tx.args);
export const ARGS_GET = collection('ARGS_GET', (tx) => tx.data.argsGet);
export const ARGS_POST = collection('ARGS_POST', (tx) => tx.argsPost);
export const ARGS_NAMES = collection('ARGS_NAMES', (tx) => names(tx.args));
export const ARGS_GET_NAMES = collection('ARGS_GET_NAMES', (tx) => names(tx.data.argsGet));
export const ARGS_POST_NAMES = collection('ARGS_POST_NAMES', (tx) => names(tx.argsPost));
export const ARGS_COMBINED_SIZE = scalar('ARGS_COMBINED_SIZE', combinedSize);
