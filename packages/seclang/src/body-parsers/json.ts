// JSON: arguments named as ModSecurity v3 does: `json.a.b` for objects, `json.a.0` for array
// items; strings as UTF-8 bytes, numbers and booleans as text, null as ''. Depth and argument
// count are limited; a parse error sets REQBODY_ERROR, and so do bytes that are not UTF-8 (as
// yajl refuses them in ModSecurity: "invalid bytes in UTF8 string").
import { isUtf8 } from 'node:buffer';
import { EntryList } from '../engine/collections/entry-list.ts';
import type { BodyParser } from './types.ts';
import { toBinary } from './types.ts';

class LimitError extends Error {}

export const json: BodyParser = {
  name: 'JSON',
  parse(body, _contentType, config) {
    const bytes = Buffer.from(body, 'latin1');
    if (!isUtf8(bytes)) {
      return { args: new EntryList(), error: 'JSON parsing error: invalid bytes in UTF8 string' };
    }
    let doc: unknown;
    try {
      doc = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      return { args: new EntryList(), error: `JSON parsing error: ${(err as Error).message}` };
    }
    const args = new EntryList();
    const walk = (value: unknown, name: string, depth: number): void => {
      if (depth > config.jsonDepthLimit)
        throw new LimitError(`JSON depth limit of ${config.jsonDepthLimit} exceeded`);
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) walk(item, `${name}.${i}`, depth + 1);
      } else if (value !== null && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) walk(v, `${name}.${toBinary(k)}`, depth + 1);
      } else {
        if (args.entries.length >= config.argumentsLimit) {
          throw new LimitError(`arguments limit of ${config.argumentsLimit} exceeded`);
        }
        args.add(name, value === null ? '' : typeof value === 'string' ? toBinary(value) : String(value));
      }
    };
    try {
      walk(doc, 'json', 0);
    } catch (err) {
      if (err instanceof LimitError) return { args, error: err.message };
      throw err;
    }
    return { args };
  },
};
