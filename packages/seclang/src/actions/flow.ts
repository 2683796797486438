// Flow actions: chain (the next SecRule is this rule's next link), skipAfter (continue after
// the named SecMarker), skip (skip the next N rules). Example: "id:1,pass,skipAfter:END-CHECKS"
import { RuleCompileError } from '../errors.ts';
import type { ActionDef } from '../types.ts';

export const chain: ActionDef = {
  name: 'chain',
  init(rule) {
    rule.chain = true;
  },
};

export const skipAfter: ActionDef = {
  name: 'skipAfter',
  init(rule, arg) {
    if (!arg) throw new RuleCompileError('skipAfter needs a marker name');
    rule.skipAfter = arg;
  },
};

export const skip: ActionDef = {
  name: 'skip',
  init(rule, arg) {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 1) throw new RuleCompileError(`bad skip count "${arg}"`);
    rule.skip = n;
  },
};
