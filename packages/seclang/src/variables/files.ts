// Multipart upload variables: FILES (field → file name), FILES_NAMES, FILES_SIZES,
// FILES_COMBINED_SIZE, FILES_TMPNAMES (empty: nothing is written to disk).
// Example: SecRule FILES "@rx \.php$" "id:1"
import { EntryList } from '../engine/collections/entry-list.ts';
import { collection, empty, scalar } from './define.ts';

const namesCache = new WeakMap<EntryList, EntryList>();

export const FILES = collection('FILES', (tx) => tx.files);
export const FILES_NAMES = collection('FILES_NAMES', (tx) => {
  let n = namesCache.get(tx.files);
  if (!n) {
    n = new EntryList(tx.files.entries.map((e) => ({ key: e.key, value: e.key })));
    namesCache.set(tx.files, n);
  }
  return n;
});
export const FILES_SIZES = collection('FILES_SIZES', (tx) => tx.filesSizes);
export const FILES_COMBINED_SIZE = scalar('FILES_COMBINED_SIZE', (tx) => String(tx.filesCombinedSize));
export const FILES_TMPNAMES = empty('FILES_TMPNAMES');
export const FILES_TMP_CONTENT = empty('FILES_TMP_CONTENT');
