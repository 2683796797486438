// Expands `${1}` / `$1` references and `$$` in a replacement (regex_replace, wildcard_replace).

const MAX_REFERENCES = 8;

export type Replacement = (groups: readonly (string | undefined)[]) => string;

/** Compiles a replacement; returns a reason string when it has more than 8 references. */
export function compileReplacement(text: string): Replacement | string {
  const pieces: (string | number)[] = [];
  let literal = '';
  let refs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '$') {
      literal += c;
      continue;
    }
    if (text[i + 1] === '$') {
      literal += '$';
      i++;
      continue;
    }
    const m = /^\$(?:\{(\d+)\}|(\d+))/.exec(text.slice(i));
    if (!m) {
      literal += c;
      continue;
    }
    pieces.push(literal);
    literal = '';
    pieces.push(Number(m[1] ?? m[2]));
    refs++;
    i += m[0].length - 1;
  }
  pieces.push(literal);
  if (refs > MAX_REFERENCES) return `at most ${MAX_REFERENCES} references are allowed in a replacement`;
  return (groups) => {
    let out = '';
    for (const p of pieces) out += typeof p === 'string' ? p : (groups[p] ?? '');
    return out;
  };
}
