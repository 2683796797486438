// initcol: opens a persistent collection (IP, GLOBAL…) under a key for this request.
// Example: "initcol:ip=%{remote_addr}_%{tx.ua_hash}"
import { RuleCompileError } from '../errors.ts';
import { compileMacro } from '../macros.ts';
import type { ActionDef } from '../types.ts';
import { WRITABLE_COLLECTIONS } from './setvar.ts';

export const initcol: ActionDef = {
  name: 'initcol',
  init(rule, arg) {
    const eq = arg?.indexOf('=') ?? -1;
    if (!arg || eq <= 0) throw new RuleCompileError('initcol needs collection=key');
    const col = arg.slice(0, eq).toLowerCase();
    if (!WRITABLE_COLLECTIONS.has(col) || col === 'tx')
      throw new RuleCompileError(`initcol: bad collection "${col}"`);
    const key = compileMacro(arg.slice(eq + 1));
    rule.runtime.push({ name: 'initcol', arg, fn: (tx) => tx.openCollection(col, key(tx, tx.currentRule)) });
  },
};
