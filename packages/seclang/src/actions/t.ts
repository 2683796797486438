// t: a transformation applied to each value before the operator; `t:none` drops the ones before.
// Example: "id:1,t:none,t:urlDecodeUni,t:lowercase"
import { RuleCompileError } from '../errors.ts';
import { getTransformation } from '../transformations/index.ts';
import type { ActionDef } from '../types.ts';

export const t: ActionDef = {
  name: 't',
  init(rule, arg) {
    if (!arg) throw new RuleCompileError('t needs a transformation name');
    const def = getTransformation(arg);
    if (!def) throw new RuleCompileError(`unknown transformation t:${arg}`);
    if (def.name === 'none') rule.transformations.length = 0;
    else rule.transformations.push(def.name);
  },
};
