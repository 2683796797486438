// Logging actions: log / nolog (whether a match is reported), auditlog / noauditlog (accepted;
// there is no audit log here). Example: "id:1,pass,nolog"
import type { ActionDef } from '../types.ts';

export const log: ActionDef = { name: 'log', init: (rule) => void (rule.log = true) };
export const nolog: ActionDef = { name: 'nolog', init: (rule) => void (rule.log = false) };
export const auditlog: ActionDef = { name: 'auditlog', init: () => {} };
export const noauditlog: ActionDef = { name: 'noauditlog', init: () => {} };
export const sanitiseArg: ActionDef = { name: 'sanitiseArg', init: () => {} };
export const sanitiseMatched: ActionDef = { name: 'sanitiseMatched', init: () => {} };
