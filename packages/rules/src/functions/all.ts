// all(Array(Bool)) → Bool: true when the comparison is true for every element (an empty array
// gives true; a missing array gives false).
// Example: all(http.request.headers["content-type"][*] == "application/json")

import { Bool } from '../types.ts';
import type { FunctionDef } from './definition.ts';

export const all: FunctionDef = {
  name: 'all',
  summary: 'all(Array(Bool)) → Bool: true when every element is true',
  minArgs: 1,
  maxArgs: 1,
  predicate: 'every',
  check: () => Bool,
  compile([a]) {
    const values = a!.evaluate;
    return (ctx) => {
      const arr = values(ctx) as readonly unknown[] | undefined;
      if (arr === undefined) return false;
      for (let i = 0; i < arr.length; i++) if (arr[i] !== true) return false;
      return true;
    };
  },
};
