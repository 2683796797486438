// REQUEST_HEADERS (keyed by header name, case-insensitive, duplicates kept), REQUEST_HEADERS_NAMES,
// REQUEST_COOKIES, REQUEST_COOKIES_NAMES. Example: SecRule REQUEST_HEADERS:User-Agent "@pm nikto" "id:1"
import type { EntryList } from '../engine/collections/entry-list.ts';
import { collection } from './define.ts';

const namesCache = new WeakMap<EntryList, EntryList>();

function names(list: EntryList): EntryList {
  let n = namesCache.get(list);
  if (!n) {
    n = list.names();
    namesCache.set(list, n);
  }
  return n;
}

export const REQUEST_HEADERS = collection('REQUEST_HEADERS', (tx) => tx.data.headers);
export const REQUEST_HEADERS_NAMES = collection('REQUEST_HEADERS_NAMES', (tx) => names(tx.data.headers));
export const REQUEST_COOKIES = collection('REQUEST_COOKIES', (tx) => tx.data.cookies);
export const REQUEST_COOKIES_NAMES = collection('REQUEST_COOKIES_NAMES', (tx) => names(tx.data.cookies));
