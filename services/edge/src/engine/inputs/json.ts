import type { Collect } from './types.ts';

/**
 * A JSON body's strings as inputs: each string value under the name of its key (array items under
 * their array's key), and each key itself. Numbers, booleans and nulls carry no attack. Walked with an
 * explicit stack, so nesting depth costs no call stack. Returns false when the text is not JSON.
 */
export function collectJson(text: string, collect: Collect): boolean {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return false;
  }
  const stack: [string, unknown][] = [['', root]];
  while (stack.length > 0) {
    const [name, value] = stack.pop() as [string, unknown];
    if (typeof value === 'string') collect('body', name, value);
    else if (Array.isArray(value)) for (const item of value) stack.push([name, item]);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        collect('body', key, key);
        stack.push([key, item]);
      }
    }
  }
  return true;
}
