// JSON: arguments as ModSecurity v3 (3.0.9, with yajl) names them, checked against the real engine
// (testdata/json-body.json): `json.a.b` for objects, `json.a.array_0` for array items (nested:
// `json.a.array_1.array_0`), `json` for a top-level scalar, `empty-key` for the key "". Values are
// strings as UTF-8 bytes, numbers as sent, `true`/`false`, and '' for null; empty containers add
// nothing. Query arguments count toward SecArgumentsLimit; past it, or past the depth limit, or on
// malformed JSON, the parse stops with yajl's message (REQBODY_ERROR).
import { EntryList } from '../engine/collections/entry-list.ts';
import { JsonSyntaxError, scanJson } from './json-scan.ts';
import type { BodyParser } from './types.ts';

const CANCELLED = 'parse error: client cancelled parse via callback return value';

interface Container {
  array: boolean;
  /** The argument name up to this container (`json.a`). */
  base: string;
  /** Array items so far. */
  count: number;
}

/** The name prefix of a container's children: `json.a.` for a map, `json.a.array_2` for an array. */
const childPrefix = (c: Container | undefined) =>
  c === undefined ? '' : c.array ? `${c.base}.array_${c.count}` : `${c.base}.`;

export const json: BodyParser = {
  name: 'JSON',
  parse(body, _contentType, config, priorArgs = 0) {
    const args = new EntryList();
    const stack: Container[] = [];
    let key = 'json';
    const nameHere = () => {
      const top = stack[stack.length - 1];
      if (top === undefined) return 'json';
      return top.array ? childPrefix(top) : childPrefix(top) + key;
    };
    const itemDone = () => {
      const top = stack[stack.length - 1];
      if (top?.array) top.count++;
    };
    try {
      scanJson(body, {
        open(kind) {
          if (stack.length >= config.jsonDepthLimit) return `${CANCELLED}. Parsing depth limit exceeded`;
          const top = stack[stack.length - 1];
          const name = top === undefined ? 'json' : top.array ? '' : key;
          stack.push({ array: kind === 'array', base: childPrefix(top) + name, count: 0 });
          return undefined;
        },
        close() {
          stack.pop();
          itemDone();
        },
        key(name) {
          key = name === '' ? 'empty-key' : name;
        },
        scalar(value) {
          if (priorArgs + args.entries.length >= config.argumentsLimit) return CANCELLED;
          args.add(nameHere(), value ?? '');
          itemDone();
          return undefined;
        },
      });
    } catch (err) {
      if (err instanceof JsonSyntaxError) return { args, error: `JSON parsing error: ${err.message}` };
      throw err;
    }
    return { args };
  },
};
