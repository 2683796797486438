// capture: @rx groups (and @pm's phrase, @detectSQLi's fingerprint) go to TX:0–TX:9.
// Example: SecRule ARGS "@rx ^(\d+)" "id:1,capture,setvar:tx.n=%{tx.1}"
import type { ActionDef } from '../types.ts';

export const capture: ActionDef = { name: 'capture', init: (rule) => void (rule.capture = true) };
