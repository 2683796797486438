// Where an HTML comment (`<!--…`) ends for the tokenizer, as libinjection reads it: at "-->" or
// "-!>", where NULs may sit between the first dash and the second character.

const DASH = 45;
const BANG = 33;
const GT = 62;

/**
 * The comment's end and the length of its closing ("-->" is 3, "-\u0000->" is 4) for a comment
 * whose text starts at `from`; [-1, 0] when it runs to the end of input.
 */
export function commentClose(s: string, from: number): [number, number] {
  const n = s.length;
  let dash = s.indexOf('-', from);
  while (dash !== -1 && dash <= n - 3) {
    let i = dash + 1;
    while (i < n && s.charCodeAt(i) === 0) i++;
    if (i === n) break;
    const c = s.charCodeAt(i);
    if (c === DASH || c === BANG) {
      if (i + 1 === n) break;
      if (s.charCodeAt(i + 1) === GT) return [dash, i + 2 - dash];
    }
    dash = s.indexOf('-', dash + 1);
  }
  return [-1, 0];
}
