// multiMatch: run the operator on the raw value and after every transformation that changes it.
// Example: SecRule ARGS "@detectSQLi" "id:942100,multiMatch,t:none,t:urlDecodeUni"
import type { ActionDef } from '../types.ts';

export const multiMatch: ActionDef = { name: 'multiMatch', init: (rule) => void (rule.multiMatch = true) };
