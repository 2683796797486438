// Fingerprint patterns that mean "this is SQL injection". Each is a regular expression over the
// short class string from sqli-tokenizer.ts (at most 8 letters), so matching costs O(1).
// `quoted` patterns apply only when the input was read as if spliced inside a string literal:
// there the leading `s` is the literal the attacker closes.

export interface SqliPattern {
  name: string;
  /** Regular-expression source over the fingerprint. */
  source: string;
  quoted?: boolean;
}

// An operand: number, string, @@variable; ANY adds a bare identifier.
const OPERAND = '[nsv]';
const ANY = '[nsvw]';
// An optional `name=` before the value, as in `id=1 or 1=1`.
const ASSIGN = '(?:wo)?';
// What may close the application's value: a value with parentheses, or parentheses alone
// (`) or 1=1--` breaks out of `(id)`).
const HEAD = `(?:${ASSIGN}[nsvw]\\)*|\\)+)`;
// A comparison with a right-hand side: = 1, like 'a', is null, in (…); a word operator needs a
// literal after it, so English "… is used" is no comparison.
const COMPARE = `(?:o\\(*${ANY}|i\\(*[nsv(])`;
// The operand of a trailing clause and what may follow it: order by 3--, limit 1, having 1=1,
// order by 1,2 — not English such as "kids' limit 2 items".
const CLAUSE_END = `\\(*[nsvf(]\\)*(?:$|[cmh,;)lo(bg])`;
// A trailing comment of any kind.
const COMMENT = '[cmh]';

export const SQLI_PATTERNS: readonly SqliPattern[] = [
  // 1 union select …, ') union all (select …, union select @@version
  { name: 'union-select', source: `[nsvw)]u\\(*q` },
  { name: 'leading-union', source: `^u\\(*q.` },
  // 1; drop table …, x'; exec …, a); declare …, ; insert into … — a bare word needs more
  // evidence (abc; update users set a=1, not "hello; drop me a line")
  { name: 'stacked-query', source: `^(?:${ASSIGN}${OPERAND})?\\)*;q.` },
  { name: 'stacked-query-word', source: `^w(?:\\)+;q|\\)*;q(?:[^w]|wkwo))` },
  // sleep(5), count(1) — a call with arguments as the whole value (not "max(2) per person");
  // (select extractvalue(…
  { name: 'function-call', source: `^f\\((?=[^)])(?![^)]*\\)w)` },
  { name: 'subquery', source: `^\\(+q[fvn(a]` },
  // 1 or 1=1, x or 'a'='a, 1) or (1=1, id=1 or 1=1, 1 or x=x, a) or x like 'b'
  { name: 'tautology', source: `^${HEAD}l\\(*${OPERAND}\\)*[oi]` },
  { name: 'tautology-name', source: `^(?:${OPERAND}\\)*|w\\)+)l\\(*w\\)*${COMPARE}` },
  // 1 and sleep(5), 1 and (select …), 1 or @@version, 1 or 1 --, 1) or true
  { name: 'logic-call', source: `^${HEAD}l\\(*f` },
  { name: 'logic-subquery', source: `^${HEAD}l\\(+q` },
  { name: 'logic-variable', source: `^${HEAD}l\\(*v` },
  {
    name: 'logic-comment',
    source: `^(?:(?:${OPERAND}\\)*|\\)+)l\\(*${ANY}|w\\)*l\\(*${OPERAND})\\)*;?${COMMENT}$`,
  },
  { name: 'paren-logic', source: `^${ANY}\\)+l\\(*${OPERAND}` },
  // or sleep(5), and (select … — a fragment that starts with the logic word and calls
  { name: 'leading-logic', source: `^l\\(*(?:f|\\(q)` },
  // 1--, 1)/*
  { name: 'number-comment', source: `^n\\)*c$` },
  { name: 'string-comment', source: `^s\\)*c$` },
  // 1 order by 5, x' having 1=1, 1 limit 1, 1 group by concat(…, abc order by 3
  { name: 'clause-tail', source: `^${ASSIGN}${OPERAND}\\)*[bg]${CLAUSE_END}` },
  { name: 'clause-tail-word', source: `^w\\)*b${CLAUSE_END}` },
  // x into outfile '…'
  { name: 'file-export', source: `^${ANY}\\)*e` },
  // 1-(select …), 1=(select …), 1+sleep(5), 1=sleep(5), abc+sleep(5)
  { name: 'operator-subquery', source: `^${ANY}\\)*[aoi]\\(+q` },
  { name: 'operator-call', source: `^(?:${OPERAND}\\)*[aoi]|w\\)*a)f` },
  // 1 waitfor delay '0:0:5', x'); waitfor time …, 1) select …
  { name: 'time-delay', source: `^${ANY}\\)*;?t` },
  { name: 'paren-statement', source: `^${OPERAND}\\)+q[^sw]` },

  // Inside a literal: x' or 1 --, x' and 'a'='a, x' or @@version, x' and email is null
  { name: 'quoted-logic', source: `^s\\)*l\\(*${OPERAND}`, quoted: true },
  { name: 'quoted-logic-compare', source: `^s\\)*l\\(*w\\)*${COMPARE}`, quoted: true },
  // admin'--, admin')/* (not #: "#anchor" is everywhere in markup)
  { name: 'quoted-comment', source: `^s\\)*;?[cm]$`, quoted: true },
  // x'+sleep(5)+', x" sleep(1) ", x')-extractvalue(…
  { name: 'quoted-call', source: `^s\\)*[aoil]?\\(*f`, quoted: true },
  // x'='x, a'+'b, x' or 'y (not "kids' like 'blue'")
  { name: 'quoted-reopen', source: `^s[aol]s$`, quoted: true },
  // x'|type a%b|', x'||x||', x'|ping -c 1 host #  — leave the literal, compute, re-enter it or
  // comment out the rest (not with a /* that has text: globs such as './*.js' end that way)
  { name: 'quoted-concat', source: `^s\\)*[al][^s]*[nvwf(][^s]*(?:[al]s|[ch])$`, quoted: true },
  // x'+(select …)
  { name: 'quoted-subquery', source: `^s\\)*[aoil]\\(+q`, quoted: true },
  // x', 'y'); declare …, x'exec master..xp_cmdshell '…'-- (a bare --, not "kids' select -- x")
  { name: 'quoted-statement', source: `^s\\)*(?:;q|q.*c$)`, quoted: true },
];

function compile(patterns: readonly SqliPattern[]): RegExp {
  return new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'));
}

/** All patterns, for input read inside a literal. */
export const QUOTED_MATCHER = compile(SQLI_PATTERNS);
/** Patterns valid for input read as is. */
export const BARE_MATCHER = compile(SQLI_PATTERNS.filter((p) => p.quoted !== true));

/** Names of the patterns that match, for tests and diagnostics. */
export function matchingPatterns(fingerprint: string, quoted: boolean): string[] {
  return SQLI_PATTERNS.filter(
    (p) => (quoted || p.quoted !== true) && new RegExp(p.source).test(fingerprint),
  ).map((p) => p.name);
}
