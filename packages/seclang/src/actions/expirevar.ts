// expirevar: a persistent collection variable disappears after N seconds (TX is per request,
// so expiry there is a no-op). Example: "expirevar:ip.reput_block_flag=%{tx.reput_block_duration}"
import { RuleCompileError } from '../errors.ts';
import { compileMacro } from '../macros.ts';
import type { ActionDef } from '../types.ts';
import { toInt } from '../util/numbers.ts';
import { splitCollectionVar } from './setvar.ts';

export const expirevar: ActionDef = {
  name: 'expirevar',
  init(rule, arg) {
    if (!arg) throw new RuleCompileError('expirevar needs an argument');
    const eq = arg.indexOf('=');
    const [col, rawName] = splitCollectionVar(eq < 0 ? arg : arg.slice(0, eq), 'expirevar');
    const name = compileMacro(rawName);
    const seconds = compileMacro(eq < 0 ? '0' : arg.slice(eq + 1));
    rule.runtime.push({
      name: 'expirevar',
      arg,
      fn(tx) {
        if (col === 'tx') return;
        tx.collection(col)?.expire(name(tx, tx.currentRule), toInt(seconds(tx, tx.currentRule)));
      },
    });
  },
};
