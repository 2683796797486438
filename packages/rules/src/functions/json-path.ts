// Shared by lookup_json_string / lookup_json_integer: parse a JSON document held in bytes and
// follow keys (object member names) and integer positions (array elements).

import { reasons } from '../errors.ts';
import { Bytes } from '../types.ts';
import { bytesToUtf8 } from '../values/bytes.ts';
import type { ArgFail, ArgInfo, CompiledArg, Evaluator } from './definition.ts';
import { expectType } from './helpers.ts';

export function checkJsonLookup(args: readonly ArgInfo[], fail: ArgFail): void {
  expectType(args, 0, Bytes, fail);
  for (let i = 1; i < args.length; i++) {
    const k = args[i]?.type.kind;
    if (k !== 'Bytes' && k !== 'Int') fail(i, reasons.argumentType(i, 'Bytes or Int', k ?? '?'));
  }
}

export function compileJsonLookup(args: readonly CompiledArg[]): (ctx: Parameters<Evaluator>[0]) => unknown {
  const [doc, ...keys] = args.map((a) => a.evaluate);
  return (ctx) => {
    const text = doc?.(ctx) as string | undefined;
    if (text === undefined) return undefined;
    const decoded = bytesToUtf8(text);
    if (decoded === undefined) return undefined;
    let node: unknown;
    try {
      node = JSON.parse(decoded);
    } catch {
      return undefined;
    }
    for (const key of keys) {
      const k = key(ctx);
      if (typeof k === 'number') {
        if (!Array.isArray(node)) return undefined;
        node = node[k];
      } else if (typeof k === 'string') {
        if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
        const name = bytesToUtf8(k);
        if (name === undefined || !Object.hasOwn(node, name)) return undefined;
        node = (node as Record<string, unknown>)[name];
      } else {
        return undefined;
      }
    }
    return node;
  };
}
