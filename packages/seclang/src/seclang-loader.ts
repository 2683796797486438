// Loads SecLang text and files into a RuleSet: directives dispatched through the registry,
// Include resolved with globs, every error located by file, line and rule id.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { getDirective } from './directives/index.ts';
import type { LoadState } from './directives/types.ts';
import { RuleSet } from './engine/ruleset.ts';
import { SecLangError } from './errors.ts';
import { type Directive, parseDirectives } from './parser.ts';
import type { LoadContext } from './types.ts';

function globFiles(pattern: string): string[] {
  const dir = dirname(pattern);
  const name = basename(pattern);
  if (!name.includes('*') && !name.includes('?')) return existsSync(pattern) ? [pattern] : [];
  if (!existsSync(dir)) return [];
  const re = new RegExp(
    `^${name
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export class SecLangLoader {
  readonly ruleset = new RuleSet();
  private readonly files = new Map<string, string>();
  private readonly state: LoadState;

  constructor() {
    const loader = this;
    this.state = {
      ruleset: this.ruleset,
      chainTail: undefined,
      chainStarter: undefined,
      ids: new Set(),
      context: (d) => this.context(d),
      include(pattern, fromDir, optional) {
        const full = isAbsolute(pattern) ? pattern : resolve(fromDir, pattern);
        const files = globFiles(full);
        if (files.length === 0 && !optional) throw new Error(`Include: no file matches ${full}`);
        for (const f of files) loader.loadFile(f);
      },
    };
  }

  readFile(path: string): string {
    let text = this.files.get(path);
    if (text === undefined) {
      text = readFileSync(path, 'latin1');
      this.files.set(path, text);
    }
    return text;
  }

  private context(d: Directive): LoadContext {
    return { file: d.file, line: d.line, dir: dirname(d.file), readFile: (p) => this.readFile(p) };
  }

  loadFile(path: string): void {
    this.loadText(this.readFile(path), path);
  }

  loadText(text: string, file: string): void {
    for (const d of parseDirectives(text, file)) {
      const def = getDirective(d.name);
      if (!def) throw new SecLangError(`unknown directive ${d.name}`, d.file, d.line);
      if (this.state.chainStarter && d.name.toLowerCase() !== 'secrule') {
        throw new SecLangError(`${d.name} inside a chain`, d.file, d.line, this.state.chainStarter.id);
      }
      def.apply(d, this.state);
    }
    if (this.state.chainStarter) {
      const r = this.state.chainStarter;
      throw new SecLangError('chain without a following rule', r.location.file, r.location.line, r.id);
    }
  }
}
