// The ReDoS suite: recheck's attacks on every CRS regex (testdata/redos-attacks.json) and the inputs of
// issue 13 for rule 941160, through `evaluate` at PL4 in every position a request carries (header,
// cookie, query, url-encoded, multipart, JSON, XML), at the largest size the proxy admits, each under a
// CPU ceiling. CPU time, not wall-clock: a loaded CI machine stretches the wall clock, not the work.
// Inputs of 128 characters or more run on RE2 (src/regex/re2.ts), so each case costs at most ~50 ms
// here (bench/waf-worst.ts prints the worst); on V8's linear engine alone they cost up to ~2.5 s.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCrsSync, type Waf } from '../src/index.ts';
import { runsLinear } from '../src/regex/linear.ts';
import { compilePcre } from '../src/regex/translate.ts';
import { cpuMs, redosCases } from './redos/cases.ts';
import { requestRegexes } from './redos/generate-attacks.ts';

/** Ten times the worst case measured here (bench/waf-worst.ts), so a loaded CI machine does not fail it. */
const CEILING_MS = 500;

let waf: Waf;
beforeAll(() => {
  waf = loadCrsSync({ paranoiaLevel: 4, timeBudgetMs: 60_000 });
}, 60_000);

describe('the regexes the CRS runs on requests', () => {
  it('all run on V8 linear fallback except 920120 (lookbehind, no repeat) and 942130 (backreference)', () => {
    const backtracking = [...requestRegexes().values()]
      .filter((r) => !runsLinear(new RegExp(r.source, r.flags)))
      .flatMap((r) => r.rules);
    expect(backtracking.sort()).toEqual([920120, 942130]);
  });

  it('a regex with exponential backtracking ends in linear time once V8 falls back', () => {
    const re = compilePcre('^(?:a|a)*$');
    expect(cpuMs(() => expect(re.test(`${'a'.repeat(100_000)}b`)).toBe(false))).toBeLessThan(2_000);
  });
});

describe('ReDoS attacks through evaluate at PL4', () => {
  it(`every attack in every position, at the largest size the proxy admits, stays under ${CEILING_MS} ms of CPU`, () => {
    const over: string[] = [];
    const decisions = new Set<string>();
    for (const c of redosCases()) {
      let decision = '';
      const ms = cpuMs(() => {
        decision = waf.evaluate(c.request).decision;
      });
      decisions.add(decision);
      if (ms > CEILING_MS) over.push(`${c.target} in ${c.position} (${c.size} B): ${ms.toFixed(0)} ms`);
    }
    expect(over).toEqual([]);
    expect([...decisions].sort()).toEqual(['allow', 'block']);
  }, 600_000);
});
