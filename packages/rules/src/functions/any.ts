// any(Array(Bool)) → Bool: true when the comparison is true for at least one element.
// Example: any(http.request.headers.names[*] == "X-Debug")

import { Bool } from '../types.ts';
import type { FunctionDef } from './definition.ts';

export const any: FunctionDef = {
  name: 'any',
  summary: 'any(Array(Bool)) → Bool: true when at least one element is true',
  minArgs: 1,
  maxArgs: 1,
  predicate: 'some',
  check: () => Bool,
  compile([a]) {
    const values = a!.evaluate;
    return (ctx) => {
      const arr = values(ctx) as readonly unknown[] | undefined;
      if (arr === undefined) return false;
      for (let i = 0; i < arr.length; i++) if (arr[i] === true) return true;
      return false;
    };
  },
};
