// setvar: sets (`=`), adds to (`=+`), subtracts from (`=-`) or deletes (`!`) a collection
// variable; names and values may hold macros. Example: "setvar:'tx.anomaly_score_pl1=+%{tx.critical_anomaly_score}'"
import { RuleCompileError } from '../errors.ts';
import { compileMacro } from '../macros.ts';
import type { ActionDef } from '../types.ts';
import { toInt } from '../util/numbers.ts';

export const WRITABLE_COLLECTIONS = new Set(['tx', 'ip', 'global', 'session', 'user', 'resource']);

const SCORE_VAR = /score/i;

/** Splits `col.name` into its parts, checking the collection. */
export function splitCollectionVar(text: string, action: string): [string, string] {
  const dot = text.indexOf('.');
  if (dot <= 0) throw new RuleCompileError(`${action}: "${text}" is not collection.name`);
  const col = text.slice(0, dot).toLowerCase();
  if (!WRITABLE_COLLECTIONS.has(col)) throw new RuleCompileError(`${action}: unknown collection "${col}"`);
  return [col, text.slice(dot + 1)];
}

export const setvar: ActionDef = {
  name: 'setvar',
  init(rule, arg) {
    if (!arg) throw new RuleCompileError('setvar needs an argument');
    const remove = arg.startsWith('!');
    const text = remove ? arg.slice(1) : arg;
    const eq = text.indexOf('=');
    const [col, rawName] = splitCollectionVar(eq < 0 ? text : text.slice(0, eq), 'setvar');
    let rhs = eq < 0 ? '1' : text.slice(eq + 1);
    let op: 'set' | 'add' | 'sub' = 'set';
    if (rhs.startsWith('+')) [op, rhs] = ['add', rhs.slice(1)];
    else if (rhs.startsWith('-')) [op, rhs] = ['sub', rhs.slice(1)];
    const name = compileMacro(rawName);
    const value = compileMacro(rhs);
    rule.runtime.push({
      name: 'setvar',
      arg,
      fn(tx) {
        const c = tx.collection(col);
        if (!c) return;
        const starter = tx.currentRule;
        const key = name(tx, starter);
        if (starter?.suppressScore && SCORE_VAR.test(key)) return;
        if (remove) c.delete(key);
        else if (op === 'set') c.set(key, value(tx, starter));
        else {
          const delta = toInt(value(tx, starter));
          const current = toInt(c.get(key) ?? '0');
          c.set(key, String(op === 'add' ? current + delta : current - delta));
        }
      },
    });
  },
};
