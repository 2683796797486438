// Metadata actions: id, msg, logdata, tag, severity, ver, rev, maturity, accuracy.
// Example: "id:942100,msg:'SQL Injection Attack Detected via libinjection',tag:'attack-sqli'"
import { RuleCompileError } from '../errors.ts';
import type { ActionDef } from '../types.ts';

const SEVERITIES = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'];

function required(name: string, arg: string | undefined): string {
  if (arg === undefined) throw new RuleCompileError(`action ${name} needs an argument`);
  return arg;
}

export const id: ActionDef = {
  name: 'id',
  init(rule, arg) {
    const n = Number(required('id', arg));
    if (!Number.isInteger(n) || n <= 0) throw new RuleCompileError(`bad rule id "${arg}"`);
    rule.id = n;
  },
};

export const msg: ActionDef = { name: 'msg', init: (rule, arg) => void (rule.msg = required('msg', arg)) };
export const logdata: ActionDef = {
  name: 'logdata',
  init: (rule, arg) => void (rule.logdata = required('logdata', arg)),
};
export const tag: ActionDef = { name: 'tag', init: (rule, arg) => void rule.tags.push(required('tag', arg)) };
export const ver: ActionDef = { name: 'ver', init: (rule, arg) => void (rule.ver = arg) };
export const rev: ActionDef = { name: 'rev', init: (rule, arg) => void (rule.rev = arg) };
export const maturity: ActionDef = { name: 'maturity', init: () => {} };
export const accuracy: ActionDef = { name: 'accuracy', init: () => {} };

export const severity: ActionDef = {
  name: 'severity',
  init(rule, arg) {
    const value = required('severity', arg).toUpperCase();
    const byNumber = /^\d$/.test(value) ? SEVERITIES[Number(value)] : undefined;
    if (!byNumber && !SEVERITIES.includes(value)) throw new RuleCompileError(`bad severity "${arg}"`);
    rule.severity = byNumber ?? value;
  },
};
