// ipMatchFromFile (alias ipMatchF): @ipMatch with the list read from a file, one per line.
// Example: SecRule REMOTE_ADDR "@ipMatchFromFile blocked.txt" "id:1"
import { resolve } from 'node:path';
import type { OperatorDef } from '../types.ts';
import { compileIpList } from './ip-match.ts';

export const ipMatchFromFile: OperatorDef = {
  name: 'ipMatchFromFile',
  compile(arg, ctx) {
    const lines = ctx
      .readFile(resolve(ctx.dir, arg.trim()))
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0 && !l.startsWith('#'));
    return compileIpList(lines);
  },
};

export const ipMatchF: OperatorDef = { name: 'ipMatchF', compile: ipMatchFromFile.compile };
