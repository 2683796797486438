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

// An operand: number, string, @@variable, or (bare) identifier.
const OPERAND = '[nsv]';
const ANY_OPERAND = '[nsvw]';

export const SQLI_PATTERNS: readonly SqliPattern[] = [
  // 1 union select …, ') union all (select …
  { name: 'union-select', source: `[nsvw)]u\\(*q` },
  // 1; drop table …, x'; exec …  — a bare word first needs a clause keyword after the statement
  { name: 'stacked-query', source: `^${OPERAND}\\)*;q.` },
  { name: 'stacked-query-word', source: `^w\\)*;qk` },
  // sleep(5), count(1) — a call with arguments as the whole value
  { name: 'function-call', source: `^f\\([^)]` },
  // 1 or 1=1, x or 'a'='a', 1) or (1=1
  { name: 'tautology', source: `^${ANY_OPERAND}\\)*l\\(*${OPERAND}\\)*o` },
  // 1 and sleep(5), x' or benchmark(…), 1 and (select …), 1 or @@version
  { name: 'logic-call', source: `^${ANY_OPERAND}\\)*l\\(*f` },
  { name: 'logic-subquery', source: `^${ANY_OPERAND}\\)*l\\(+q` },
  { name: 'logic-statement', source: `^${OPERAND}\\)*lq` },
  { name: 'logic-variable', source: `^${ANY_OPERAND}\\)*l\\(*v` },
  // 1--, 1)/*
  { name: 'number-comment', source: `^n\\)*c$` },
  { name: 'string-comment', source: `^s\\)*c$` },
  // 1 order by 5, x' having 1=1, 1 limit 1
  { name: 'clause-tail', source: `^${OPERAND}\\)*b\\(*${ANY_OPERAND}` },
  // 1-(select …), 1=(select …), 1+sleep(5), 1=sleep(5)
  { name: 'operator-subquery', source: `^${OPERAND}\\)*[ao]\\(+q` },
  { name: 'operator-call', source: `^${OPERAND}\\)*[ao]f` },
  // 1 waitfor delay '0:0:5', x'); waitfor time …
  { name: 'time-delay', source: `^${OPERAND}\\)*;?t` },
  { name: 'paren-statement', source: `^${OPERAND}\\)+q[^s]` },

  // Inside a literal: x' or 1 --, x' and 'a'='a, x' or @@version
  { name: 'quoted-logic', source: `^s\\)*l\\(*${OPERAND}`, quoted: true },
  // admin'--, admin')#
  { name: 'quoted-comment', source: `^s\\)*;?[cm]$`, quoted: true },
  // x'+sleep(5)+', x" sleep(1) ", x')-extractvalue(…
  { name: 'quoted-call', source: `^s\\)*[ao]?\\(*f`, quoted: true },
  // x'='x, a'+'b, x' or 'y
  { name: 'quoted-reopen', source: `^s[aol]s$`, quoted: true },
  // x'|type a%b|'  — leave the literal, compute, re-enter it
  { name: 'quoted-concat', source: `^s\\)*[ao][^s]*[ao]s$`, quoted: true },
  // x'+(select …)
  { name: 'quoted-subquery', source: `^s\\)*[ao]\\(+q`, quoted: true },
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
