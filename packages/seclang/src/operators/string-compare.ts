// streq, beginsWith, endsWith, contains, within, containsWord: string tests against the
// macro-expanded argument. Example: SecRule REQUEST_METHOD "!@within %{tx.allowed_methods}" "id:1"
import { compileMacro, hasMacro } from '../macros.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

function stringOp(name: string, test: (input: string, arg: string) => boolean): OperatorDef {
  return {
    name,
    compile(arg): OperatorFn {
      const expand = compileMacro(arg);
      const fn: OperatorFn = (tx, input) => {
        const value = expand(tx, undefined);
        const ok = test(input, value);
        if (ok && tx.capture) tx.setCapture(0, input);
        return ok;
      };
      if (!hasMacro(arg)) fn.pure = true;
      return fn;
    },
  };
}

function containsWord(input: string, word: string): boolean {
  if (word === '') return true;
  for (let i = input.indexOf(word); i >= 0; i = input.indexOf(word, i + 1)) {
    const before = i === 0 ? '' : input[i - 1]!;
    const after = input[i + word.length] ?? '';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
  }
  return false;
}

export const streq = stringOp('streq', (input, arg) => input === arg);
export const beginsWith = stringOp('beginsWith', (input, arg) => input.startsWith(arg));
export const endsWith = stringOp('endsWith', (input, arg) => input.endsWith(arg));
export const contains = stringOp('contains', (input, arg) => input.includes(arg));
export const within = stringOp('within', (input, arg) => arg.includes(input));
export const containsWordOp = stringOp('containsWord', containsWord);
export const strmatch = stringOp('strmatch', (input, arg) => input.includes(arg));
