// SecLang semantics on small rule sets: chains, skipAfter, setvar/macros, capture, ctl, default
// actions, DetectionOnly, load errors, overrides, limits and the time budget.
import { describe, expect, it } from 'vitest';
import { loadCrsSync, loadRules, type WafRequest } from '../src/index.ts';
import { registerOperator } from '../src/operators/index.ts';
import type { OperatorFn } from '../src/types.ts';
import { get, post } from './fixtures.ts';

const DEFAULTS = 'SecDefaultAction "phase:1,log,pass"\nSecDefaultAction "phase:2,log,pass"\n';

function ids(rules: string, req: WafRequest): number[] {
  return loadRules(DEFAULTS + rules)
    .evaluate(req)
    .matchedRules.map((m) => m.id);
}

describe('rule semantics', () => {
  it('ANDs chain links and logs the chain under the starter id', () => {
    const rules = `
SecRule ARGS:a "@streq 1" "id:10,phase:1,chain"
  SecRule ARGS:b "@streq 2" "t:none"`;
    expect(ids(rules, get('/?a=1&b=2'))).toEqual([10]);
    expect(ids(rules, get('/?a=1&b=3'))).toEqual([]);
  });

  it('jumps to the marker on skipAfter', () => {
    const rules = `
SecAction "id:1,phase:1,nolog,pass,skipAfter:END"
SecAction "id:2,phase:1,pass"
SecMarker END
SecAction "id:3,phase:1,pass"`;
    expect(ids(rules, get('/'))).toEqual([3]);
  });

  it('sets, adds and expands TX variables; capture fills TX:1', () => {
    const rules = `
SecRule ARGS:n "@rx ^(\\d+)$" "id:1,phase:1,nolog,pass,capture,setvar:tx.n=%{tx.1},setvar:tx.n=+5"
SecRule TX:n "@eq 47" "id:2,phase:1,pass,msg:'n is %{tx.n}',logdata:'%{MATCHED_VAR_NAME}=%{MATCHED_VAR}'"`;
    const r = loadRules(DEFAULTS + rules).evaluate(get('/?n=42'));
    expect(r.matchedRules).toMatchObject([{ id: 2, message: 'n is 47', data: 'TX:n=47' }]);
  });

  it('applies selectors, regex keys, exclusions and counts', () => {
    const rules = `
SecRule ARGS|!ARGS:safe "@rx evil" "id:1,phase:1,pass"
SecRule ARGS:/^x_/ "@rx bad" "id:2,phase:1,pass"
SecRule &ARGS "@eq 3" "id:3,phase:1,pass"
SecRule REQUEST_HEADERS:X-Test "@streq yes" "id:4,phase:1,pass"`;
    expect(ids(rules, get('/?safe=evil&x_1=bad&y=ok', [['x-test', 'yes']]))).toEqual([2, 3, 4]);
    expect(ids(rules, get('/?other=evil'))).toEqual([1]);
  });

  it('transforms before matching and multiMatch also tries the raw value', () => {
    expect(
      ids(
        'SecRule ARGS "@streq <x>" "id:1,phase:1,t:none,t:urlDecodeUni,t:htmlEntityDecode"',
        get('/?a=%26lt;x%26gt;'),
      ),
    ).toEqual([1]);
    expect(
      ids('SecRule ARGS "@streq a%" "id:1,phase:1,multiMatch,t:none,t:removeNulls"', get('/?q=a%25')),
    ).toEqual([1]);
  });

  it('ctl:ruleRemoveById and ruleRemoveTargetById act on later rules of this request only', () => {
    const rules = `
SecRule ARGS:off "@streq 1" "id:1,phase:1,nolog,pass,ctl:ruleRemoveById=3,ctl:ruleRemoveTargetById=2;ARGS:q"
SecRule ARGS "@rx x" "id:2,phase:1,pass"
SecAction "id:3,phase:1,pass"`;
    expect(ids(rules, get('/?off=1&q=x'))).toEqual([]);
    expect(ids(rules, get('/?q=x'))).toEqual([2, 3]);
  });

  it('block follows SecDefaultAction; deny stops processing; DetectionOnly only reports', () => {
    const rules = `
SecRuleEngine On
SecDefaultAction "phase:1,log,deny,status:418"
SecRule ARGS:a "@streq 1" "id:1,phase:1,block"
SecAction "id:2,phase:1,pass"`;
    const waf = loadRules(rules);
    expect(waf.evaluate(get('/?a=1'))).toMatchObject({ decision: 'block', status: 418, ruleId: 1 });
    expect(waf.evaluate(get('/?a=1')).matchedRules.map((m) => m.id)).toEqual([1]);
    const detect = loadRules(rules.replace('SecRuleEngine On', 'SecRuleEngine DetectionOnly'));
    const r = detect.evaluate(get('/?a=1'));
    expect(r.decision).toBe('allow');
    expect(r.wouldBlock).toEqual({ status: 418, ruleId: 1 });
    expect(r.matchedRules.map((m) => m.id)).toEqual([1, 2]);
  });

  it('parses JSON bodies with ModSecurity argument names', () => {
    const rules = `
SecRule REQUEST_HEADERS:Content-Type "@rx json" "id:1,phase:1,nolog,pass,ctl:requestBodyProcessor=JSON"
SecRule ARGS:json.user.roles.array_1 "@streq admin" "id:2,phase:2,pass"`;
    expect(ids(rules, post('/', 'application/json', '{"user":{"roles":["u","admin"]}}'))).toEqual([2]);
  });

  it('reports a body that cannot be parsed through REQBODY_ERROR', () => {
    const rules = `
SecRule REQUEST_HEADERS:Content-Type "@rx json" "id:1,phase:1,nolog,pass,ctl:requestBodyProcessor=JSON"
SecRule REQBODY_ERROR "!@eq 0" "id:2,phase:2,pass,logdata:'%{REQBODY_ERROR_MSG}'"`;
    const r = loadRules(DEFAULTS + rules).evaluate(post('/', 'application/json', '{"a":'));
    expect(r.matchedRules[0]).toMatchObject({ id: 2 });
    expect(r.bodyError).toMatch(/JSON/);
  });

  it('exposes multipart fields, files, part headers and strictness flags', () => {
    const body =
      '--B\r\nContent-Disposition: form-data; name="f"; filename="a.php"\r\nContent-Type: text/plain\r\n\r\n<?php\r\n--B\r\nContent-Disposition: form-data; name="t"\r\n\r\nhi\r\n--B--\r\n';
    const rules = `
SecRule FILES "@rx \\.php$" "id:1,phase:2,pass"
SecRule ARGS:t "@streq hi" "id:2,phase:2,pass"
SecRule MULTIPART_PART_HEADERS:f "@rx ^content-type" "id:3,phase:2,pass,t:lowercase"
SecRule MULTIPART_STRICT_ERROR "!@eq 0" "id:4,phase:2,pass"`;
    expect(ids(rules, post('/', 'multipart/form-data; boundary=B', body))).toEqual([1, 2, 3]);
    expect(ids(rules, post('/', 'multipart/form-data; boundary=B', 'junk\r\n' + body))).toEqual([1, 2, 3, 4]);
  });

  it('reads XML text content and attribute values', () => {
    const rules = `
SecRule REQUEST_HEADERS:Content-Type "@rx xml" "id:1,phase:1,nolog,pass,ctl:requestBodyProcessor=XML"
SecRule XML:/* "@rx hello world" "id:2,phase:2,pass"
SecRule XML://@* "@streq 42" "id:3,phase:2,pass"`;
    expect(ids(rules, post('/', 'text/xml', '<a id="42"><b>hello</b> world</a>'))).toEqual([2, 3]);
  });
});

describe('load errors name file, line and rule', () => {
  it.each([
    ['SecRule ARGS "@fooBar x" "id:7,phase:1"', /<rules>:1 rule 7: unknown operator @fooBar/],
    ['SecRule NOPE "@rx x" "id:8,phase:1"', /<rules>:1 rule 8: unknown variable NOPE/],
    ['\nSecRule ARGS "@rx x" "id:9,phase:1,explode"', /<rules>:2 rule 9: unknown action explode/],
    ['SecFrobnicate On', /<rules>:1: unknown directive SecFrobnicate/],
    ['SecRule ARGS "@rx x" "id:5,t:nope"', /rule 5: unknown transformation t:nope/],
    ['SecRule ARGS "@rx (" "id:6"', /rule 6: regex does not compile/],
    ['SecAction "id:1"\nSecAction "id:1"', /duplicate rule id 1/],
    ['SecRule ARGS "@rx x" "id:4,chain"', /chain without a following rule/],
  ])('%s', (text, message) => {
    expect(() => loadRules(text)).toThrow(message);
  });
});

describe('limits and time budget', () => {
  it('rejects an oversized body with 413 and never parses past the limit', () => {
    const waf = loadRules(
      'SecRuleEngine On\nSecRequestBodyNoFilesLimit 10\nSecRequestBodyLimitAction Reject',
    );
    expect(waf.evaluate(post('/', 'application/x-www-form-urlencoded', 'a='.padEnd(100, 'x')))).toMatchObject(
      {
        decision: 'block',
        status: 413,
        bodyLimitExceeded: true,
      },
    );
    const partial = loadRules(
      `${DEFAULTS}SecRequestBodyNoFilesLimit 10\nSecRequestBodyLimitAction ProcessPartial\nSecRule ARGS:a "@streq 01234567" "id:1,phase:2,pass"`,
    );
    const r = partial.evaluate(post('/', 'application/x-www-form-urlencoded', 'a=0123456789abcdef'));
    expect(r.matchedRules.map((m) => m.id)).toEqual([1]);
  });

  it('applies the timeout policy when the CPU budget is spent', () => {
    // A backreference keeps V8's backtracking engine (no linear fallback): each rule costs ms of CPU.
    const rules = Array.from(
      { length: 64 },
      (_, i) => `SecRule ARGS "@rx ^(a|aa)+\\1$" "id:${i + 1},phase:1,pass,nolog"`,
    ).join('\n');
    const req = get(`/?q=${'a'.repeat(26)}b`);
    const blocking = loadRules(rules, { timeBudgetMs: 0.001, onTimeout: 'block' }).evaluate(req);
    expect(blocking).toMatchObject({ timedOut: true, decision: 'block', status: 503 });
    const open = loadRules(rules, { timeBudgetMs: 0.001, onTimeout: 'allow' }).evaluate(req);
    expect(open).toMatchObject({ timedOut: true, decision: 'allow' });
  });

  it('checks the CPU budget between large values within one rule', () => {
    // (a+)\1b costs tens of ms on 1,000 a's (no linear fallback for a backreference); the spaces make
    // each value large. One rule, three such values (distinct: a value known not to match is not run again).
    const rules = 'SecRule ARGS "@rx (a+)\\1b" "id:1,phase:1,pass,nolog"';
    const run = `b${'a'.repeat(1_000)}${'+'.repeat(4_000)}`;
    const req = get(`/?x=${run}x&y=${run}y&z=${run}z`);
    const r = loadRules(rules, { timeBudgetMs: 1, onTimeout: 'block' }).evaluate(req);
    expect(r).toMatchObject({ timedOut: true, decision: 'block', status: 503 });
    expect(loadRules(rules, { timeBudgetMs: 10_000 }).evaluate(req).timedOut).toBeUndefined();
  });
});

describe('values known not to match', () => {
  // An operator that records each value it is given; pure: its result depends on the value alone.
  const seen: string[] = [];
  registerOperator({
    name: 'recordedStreq',
    compile(arg) {
      const fn: OperatorFn = (_tx, input) => {
        seen.push(input);
        return input === arg;
      };
      fn.pure = true;
      return fn;
    },
  });

  it('runs a pure operator once per distinct value, in one request and the next, and still reports every match', () => {
    const waf = loadRules(`${DEFAULTS}SecRule ARGS "@recordedStreq bad" "id:1,phase:1,pass,t:lowercase"`);
    seen.length = 0;
    expect(waf.evaluate(get('/?a=ok&b=ok&c=BAD')).matchedRules.map((m) => m.id)).toEqual([1]);
    expect(seen).toEqual(['ok', 'bad']);
    seen.length = 0;
    const again = waf.evaluate(get('/?x=ok&y=BAD'));
    expect(again.matchedRules).toMatchObject([{ id: 1, matchedVar: 'ARGS:y' }]);
    expect(seen).toEqual(['bad']);
    // another rule with the same operator has its own knowledge
    const other = loadRules(`${DEFAULTS}SecRule ARGS "@recordedStreq ok" "id:2,phase:1,pass"`);
    seen.length = 0;
    expect(other.evaluate(get('/?a=ok')).matchedRules.map((m) => m.id)).toEqual([2]);
    expect(seen).toEqual(['ok']);
  });

  it('remembers nothing for a negated operator, nor for one whose argument reads the transaction', () => {
    const negated = loadRules(`${DEFAULTS}SecRule ARGS "!@recordedStreq ok" "id:1,phase:1,pass"`);
    seen.length = 0;
    negated.evaluate(get('/?a=ok'));
    expect(negated.evaluate(get('/?a=ok&b=no')).matchedRules.map((m) => m.id)).toEqual([1]);
    expect(seen).toEqual(['ok', 'ok', 'no']);
    const macro = loadRules(`${DEFAULTS}SecAction "id:1,phase:1,nolog,pass,setvar:tx.want=%{ARGS.want}"
SecRule ARGS:v "@streq %{tx.want}" "id:2,phase:1,pass"`);
    expect(macro.evaluate(get('/?want=a&v=b')).matchedRules.map((m) => m.id)).toEqual([]);
    expect(macro.evaluate(get('/?want=b&v=b')).matchedRules.map((m) => m.id)).toEqual([2]);
  });
});

describe('CRS overrides', () => {
  const attack = get("/item?id=1'%20or%20'1'%3D'1");

  it('disables rules by id and by tag', () => {
    const all = loadCrsSync({ timeBudgetMs: 5000, paranoiaLevel: 1 }).evaluate(attack);
    const sqliIds = all.matchedRules.filter((m) => m.tags.includes('attack-sqli')).map((m) => m.id);
    expect(sqliIds.length).toBeGreaterThan(0);
    const byTag = loadCrsSync({
      timeBudgetMs: 5000,
      paranoiaLevel: 1,
      overrides: { disabledTags: ['attack-sqli'] },
    }).evaluate(attack);
    expect(byTag.matchedRules.filter((m) => m.tags.includes('attack-sqli'))).toEqual([]);
    const byId = loadCrsSync({
      timeBudgetMs: 5000,
      paranoiaLevel: 1,
      overrides: { disabledRules: sqliIds },
    }).evaluate(attack);
    expect(byId.matchedRules.map((m) => m.id)).not.toContain(sqliIds[0]);
  });

  it('changes a rule action: log (no score) or block on its own', () => {
    const logged = loadCrsSync({
      timeBudgetMs: 5000,
      paranoiaLevel: 1,
      overrides: { ruleActions: { 949110: 'log' } },
    }).evaluate(attack);
    expect(logged.decision).toBe('allow');
    expect(logged.matchedRules.map((m) => m.id)).toContain(949110);
    const ua = get('/', [['User-Agent', 'Nikto']]);
    const waf = loadCrsSync({
      paranoiaLevel: 1,
      inboundThreshold: 1000,
      overrides: { ruleActions: { 913100: 'block' } },
    });
    expect(waf.evaluate(ua)).toMatchObject({ decision: 'block', ruleId: 913100 });
  });

  it('detection-only mode reports what would be blocked', () => {
    const r = loadCrsSync({ timeBudgetMs: 5000, paranoiaLevel: 1, detectionOnly: true }).evaluate(attack);
    expect(r.decision).toBe('allow');
    expect(r.wouldBlock?.ruleId).toBe(949110);
    expect(r.anomalyScore).toBeGreaterThanOrEqual(5);
  });

  it('fails loudly when the CRS is not installed', () => {
    expect(() => loadCrsSync({ crsDir: '/nonexistent/crs' })).toThrow(/apt-get install modsecurity-crs/);
  });
});
