// The operator prefilters (src/regex/prefilter.ts) must never hide a match: every input an
// operator matches has to pass its prefilter. Checked on the whole CRS regression corpus (every
// value each rule sees, after its transformations) and on random strings for tricky patterns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  identityUnless,
  KNOWN_TRANSFERS,
  keepsClasses,
  transfer,
  transferOf,
  transferredHi,
  transferredLo,
} from '../src/engine/class-transfer.ts';
import { chainFor } from '../src/engine/transform-chain.ts';
import type { Prefilter } from '../src/regex/prefilter.ts';
import { classBits, passes, phrasePrefilter, regexPrefilter } from '../src/regex/prefilter.ts';
import { compilePcre } from '../src/regex/translate.ts';
import { getTransformation } from '../src/transformations/index.ts';
import type { OperatorFn, Rule } from '../src/types.ts';
import { AhoCorasick } from '../src/util/aho-corasick.ts';
import { loadCorpus } from './crs-regression/ftw.ts';
import { corpusDir, regressionWaf } from './crs-regression/runner.ts';

const PATTERNS = [
  '(?i)<script[^>]*>',
  '[\'";=]',
  '\\bunion\\b\\s+select',
  '(?:\\.\\./|%2e%2e)',
  '^[\\d.:]+$',
  '(?i:on\\w+)\\s*=',
  '[^a-z]x',
  'a{2,}b',
  '(?<!&)#\\d',
  '(a)\\1b',
  '(?=.*select)from',
  '[]a]|b{,2}',
  'x{0}y|[\\x00-\\x08]z',
  '(?:ab|c(?:d|e+))?f',
  '\\Wfoo\\S',
  '[\\s\\S]{3}',
];

function pmOf(phrases: string[]): (s: string) => boolean {
  const ascii = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const lower = phrases.map(ascii);
  return (s) => {
    const l = ascii(s);
    return lower.some((p) => l.includes(p));
  };
}

describe('operator prefilters', () => {
  it('never rule out a string the regex matches (random strings)', () => {
    const compiled = PATTERNS.map((p) => compilePcre(p)).map((re) => ({ re, pre: regexPrefilter(re) }));
    expect(compiled.filter((c) => c.pre).length).toBeGreaterThan(8);
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 40,
          unit: fc.constantFrom(...'<>sScriptuniosel ON=;\'"./%2e#&&&dx0123459a b]\x00\x07fFXyz\t'),
        }),
        (s) => {
          const [lo, hi] = classBits(s);
          for (const { re, pre } of compiled) if (pre && re.test(s)) expect(passes(pre, lo, hi)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never rule out a string holding a phrase', () => {
    const phrases = ['document.cookie', '<?php', 'Select', 'x', '../', 'a b'];
    const pre = phrasePrefilter(phrases);
    const pm = pmOf(phrases);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30, unit: fc.constantFrom(...'documentCOOKIE.<?phpSELECTx./ ab') }),
        (s) => {
          const [lo, hi] = classBits(s);
          if (pre && pm(s)) expect(passes(pre, lo, hi)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the phrase automaton finds a phrase exactly when one occurs (ASCII case-insensitive)', () => {
    const unit = fc.constantFrom(...'abAB.-/ x\u00e9\u00c9');
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 4, unit }), { minLength: 1, maxLength: 6 }),
        fc.string({ maxLength: 30, unit }),
        (phrases, s) => {
          const hit = new AhoCorasick(phrases).search(s);
          expect(hit !== undefined).toBe(pmOf(phrases)(s));
          if (hit !== undefined) expect(pmOf([hit])(s)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('rules out values without the required characters', () => {
    const pre = regexPrefilter(compilePcre('(?i)<script[^>]*>'))!;
    expect(pre).toBeDefined();
    expect(passes(pre, ...classBits('a perfectly ordinary value'))).toBe(false);
    expect(passes(pre, ...classBits('<SCRIPT >'))).toBe(true);
    expect(passes(pre, ...classBits('\u0100'))).toBe(true);
    expect(regexPrefilter(compilePcre('a*'))).toBeUndefined();
    expect(regexPrefilter(compilePcre('.'))).toBeUndefined();
  });

  it('class transfers cover what each transformation can produce', () => {
    const unit = fc.oneof(
      fc.constantFrom(...'%+&#;\\/.\'"^,; \t\n\r\x00\xa0\xc3\xa9<>()*-_=xX0aAuUfF'),
      fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
    );
    const samples = fc.sample(fc.string({ maxLength: 24, unit }), 2000);
    samples.push(
      '',
      '%41',
      '%u0041',
      '%uff21',
      '&#x3c;',
      '&lt;',
      '\\x3c',
      '\\3c ',
      '/*x*/',
      'a  b',
      'YWJj',
      '\xc3\xa9',
    );
    for (const name of KNOWN_TRANSFERS) {
      const def = getTransformation(name)!;
      const steps = Int32Array.from(transferOf(name));
      for (const s of samples) {
        const [lo, hi] = classBits(s);
        transfer(steps, lo, hi);
        const [olo, ohi] = classBits(def.transform(s));
        const ok = (olo & ~transferredLo()) === 0 && (ohi & ~transferredHi()) === 0;
        if (!ok) expect(`${name}(${JSON.stringify(s)})`).toBe('covered');
        if (keepsClasses(name) && (olo !== lo || ohi !== hi)) {
          expect(`${name}(${JSON.stringify(s)})`).toBe('same classes');
        }
        const keep = identityUnless(name);
        if (keep && ((lo & keep[0]) | (hi & keep[1])) === 0 && def.transform(s) !== s) {
          expect(`${name}(${JSON.stringify(s)})`).toBe('unchanged');
        }
      }
    }
  });

  it('the transfer shortcut of a chain agrees with the full transfer', () => {
    const chains = [
      ['utf8toUnicode', 'urlDecodeUni', 'htmlEntityDecode', 'jsDecode', 'cssDecode', 'removeNulls'],
      ['urlDecodeUni', 'cmdLine', 'normalizePath', 'lowercase'],
      ['length'],
      ['sha1', 'hexEncode'],
      ['urlDecode', 'replaceComments', 'compressWhitespace'],
    ].map((names) => chainFor(names)!);
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (anyLo, anyHi) => {
        for (const chain of chains) {
          const lo = anyLo & ~chain.triggerLo;
          const hi = anyHi & ~chain.triggerHi;
          transfer(chain.transfer, lo, hi);
          const [flo, fhi] = [transferredLo(), transferredHi()];
          if (((lo & chain.triggerLo) | (hi & chain.triggerHi)) === 0) {
            expect([lo | chain.baseLo, hi | chain.baseHi]).toEqual([flo, fhi]);
          }
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('hold for every value of the CRS regression corpus at PL4', () => {
    const waf = regressionWaf();
    let checked = 0;
    let skipped = 0;
    const misses: string[] = [];
    const bits = new Map<string, [number, number]>();
    for (const list of waf.ruleset.phases) {
      for (const item of list) {
        if (typeof item === 'string') continue;
        for (let link: Rule | undefined = item; link; link = link.chained) {
          const pre: Prefilter | undefined = link.prefilter;
          if (!pre) continue;
          const op = link.operator;
          const id = item.id;
          const wrapped: OperatorFn = (tx, input) => {
            const hit = op(tx, input);
            let b = bits.get(input);
            if (!b) {
              b = classBits(input);
              bits.set(input, b);
            }
            if (!passes(pre, b[0], b[1])) {
              skipped++;
              if (hit) misses.push(`${id}: ${JSON.stringify(input.slice(0, 80))}`);
            }
            if (hit) checked++;
            return hit;
          };
          Object.assign(link, { operator: wrapped, prefilter: undefined });
        }
      }
    }
    for (const test of loadCorpus(corpusDir())) waf.evaluate(test.request);
    expect(misses).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
    expect(skipped).toBeGreaterThan(10_000);
  }, 120_000);
});
