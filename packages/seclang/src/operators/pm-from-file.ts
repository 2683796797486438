// pmFromFile (alias pmf): @pm with phrases read from files (one per line, `#` comments),
// paths relative to the rule file. Example: SecRule ARGS "@pmFromFile unix-shell.data" "id:1"
import { resolve } from 'node:path';
import type { LoadContext, OperatorDef } from '../types.ts';
import { phraseMatcher } from './pm.ts';

function readPhrases(arg: string, ctx: LoadContext): string[] {
  const phrases: string[] = [];
  for (const file of arg.split(/\s+/).filter((f) => f.length > 0)) {
    const text = ctx.readFile(resolve(ctx.dir, file));
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line.length > 0 && !line.startsWith('#')) phrases.push(line);
    }
  }
  return phrases;
}

export const pmFromFile: OperatorDef = {
  name: 'pmFromFile',
  compile: (arg, ctx) => phraseMatcher(readPhrases(arg, ctx)),
};

export const pmf: OperatorDef = { name: 'pmf', compile: pmFromFile.compile };
