// Parses a SecRule variable list: `REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|&ARGS|XML:/*`.
// `|` inside a `/regex/` selector or a quoted key does not split.

import { RuleCompileError } from './errors.ts';

export interface TargetSpec {
  readonly negated: boolean;
  readonly count: boolean;
  readonly name: string;
  /** `:key` (raw text), `:/regex/` (source), or none. */
  readonly key: string | undefined;
  readonly regex: string | undefined;
}

function readSelector(
  text: string,
  i: number,
  name: string,
): [string | undefined, string | undefined, number] {
  // XML selectors are XPath expressions, not regexes.
  if (text[i] === '/' && name !== 'XML') {
    let j = i + 1;
    while (j < text.length && text[j] !== '/') j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length) throw new RuleCompileError(`unterminated regex selector in "${text}"`);
    return [undefined, text.slice(i + 1, j), j + 1];
  }
  if (text[i] === "'") {
    const end = text.indexOf("'", i + 1);
    if (end < 0) throw new RuleCompileError(`unterminated quoted selector in "${text}"`);
    return [text.slice(i + 1, end), undefined, end + 1];
  }
  let j = i;
  while (j < text.length && text[j] !== '|') j++;
  return [text.slice(i, j), undefined, j];
}

export function parseTargetSpecs(text: string): TargetSpec[] {
  const out: TargetSpec[] = [];
  let i = 0;
  while (i < text.length) {
    let negated = false;
    let count = false;
    if (text[i] === '!') {
      negated = true;
      i++;
    }
    if (text[i] === '&') {
      count = true;
      i++;
    }
    let j = i;
    while (j < text.length && text[j] !== ':' && text[j] !== '|') j++;
    const name = text.slice(i, j).trim().toUpperCase();
    if (name.length === 0) throw new RuleCompileError(`empty variable name in "${text}"`);
    let key: string | undefined;
    let regex: string | undefined;
    i = j;
    if (text[i] === ':') {
      [key, regex, i] = readSelector(text, i + 1, name);
    }
    out.push({ negated, count, name, key, regex });
    if (i < text.length && text[i] !== '|')
      throw new RuleCompileError(`unexpected "${text[i]}" in "${text}"`);
    i++;
  }
  return out;
}
