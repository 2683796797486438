// MATCHED_VAR, MATCHED_VAR_NAME (the last match) and MATCHED_VARS, MATCHED_VARS_NAMES (the
// matches of the current rule chain). Example: SecRule MATCHED_VARS "@pm (" "id:1"
import { EntryList } from '../engine/collections/entry-list.ts';
import { collection, scalar } from './define.ts';

export const MATCHED_VAR = scalar('MATCHED_VAR', (tx) => tx.matchedVar, true);
export const MATCHED_VAR_NAME = scalar('MATCHED_VAR_NAME', (tx) => tx.matchedVarName, true);
export const MATCHED_VARS = collection('MATCHED_VARS', (tx) => tx.matchedVars, true);
export const MATCHED_VARS_NAMES = collection(
  'MATCHED_VARS_NAMES',
  (tx) => new EntryList(tx.matchedVars.entries.map((e) => ({ key: e.key, value: e.key }))),
  true,
);
