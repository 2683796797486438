// Splits SecLang configuration text into directives: joins `\` continuation lines, drops comments,
// and tokenises arguments the way Apache's configuration reader (ModSecurity v2, the engine the
// CRS 3.3 tests were written against) does: `\\` becomes `\`, `\"` inside quotes becomes `"`,
// every other backslash stays.

import { SecLangError } from './errors.ts';

export interface Directive {
  readonly name: string;
  readonly args: string[];
  readonly file: string;
  readonly line: number;
}

function tokenize(text: string, file: string, line: number): string[] {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= n) break;
    if (text[i] === '"' || text[i] === "'") {
      const quote = text[i]!;
      let tok = '';
      i++;
      while (i < n && text[i] !== quote) {
        if (text[i] === '\\' && (text[i + 1] === quote || text[i + 1] === '\\')) {
          tok += text[i + 1];
          i += 2;
        } else tok += text[i++];
      }
      if (i >= n) throw new SecLangError('unterminated quoted argument', file, line);
      i++;
      out.push(tok);
    } else {
      let j = i;
      while (j < n && text[j] !== ' ' && text[j] !== '\t') j++;
      out.push(text.slice(i, j).replaceAll('\\\\', '\\'));
      i = j;
    }
  }
  return out;
}

export function parseDirectives(text: string, file: string): Directive[] {
  const lines = text.split(/\r?\n/);
  const out: Directive[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i]!;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      line = line.replace(/\\\s*$/, '') + lines[++i]!;
    }
    const trimmed = line.trim();
    if (trimmed.length === 0 || trimmed.startsWith('#')) continue;
    const tokens = tokenize(trimmed, file, start);
    const [name, ...args] = tokens;
    if (name) out.push({ name, args, file, line: start });
  }
  return out;
}
