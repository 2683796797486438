// Disruptive actions: pass, block (the phase's SecDefaultAction decides), deny, drop, allow,
// redirect; and status, the HTTP status of deny. Example: "id:1,phase:2,deny,status:403"
import { RuleCompileError } from '../errors.ts';
import type { ActionDef, Disruptive } from '../types.ts';

function disruptive(name: Disruptive): ActionDef {
  return {
    name,
    init(rule) {
      rule.disruptive = name;
    },
  };
}

export const pass = disruptive('pass');
export const block = disruptive('block');
export const deny = disruptive('deny');
export const drop = disruptive('drop');
export const allow = disruptive('allow');
export const redirect = disruptive('redirect');

export const status: ActionDef = {
  name: 'status',
  init(rule, arg) {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 100 || n > 599) throw new RuleCompileError(`bad status "${arg}"`);
    rule.status = n;
  },
};
