// JSON bodies through the engine with the base configuration, as nginx + ModSecurity v3.0.9 with
// Debian's modsecurity.conf treats them: which Content-Types select the JSON processor (rule 200001),
// the names rules see in ARGS / ARGS_NAMES / MATCHED_VAR_NAME, and REQUEST_BODY (filled, as v3 does).
import { describe, expect, it } from 'vitest';
import { BASE_CONFIG } from '../src/base-config.ts';
import { loadRules } from '../src/index.ts';
import { post } from './fixtures.ts';

const RULES = `${BASE_CONFIG}
SecDefaultAction "phase:2,log,pass"
SecRule ARGS "@rx UNION" "id:10,phase:2,pass,log"
SecRule ARGS_NAMES "@streq json.filter.ids.array_1" "id:11,phase:2,pass,log"
SecRule REQUEST_BODY "@rx UNION" "id:12,phase:2,pass,log"
SecRule REQBODY_PROCESSOR "@streq JSON" "id:13,phase:2,pass,log"
`;

const BODY = '{"filter":{"ids":[1,"2 UNION SELECT 1"]}}';

describe('JSON bodies with the base configuration', () => {
  it('reads application/json in any case and with parameters, and +json types', () => {
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/vnd.api+json',
    ]) {
      const r = loadRules(RULES).evaluate(post('/api', type, BODY));
      expect(
        r.matchedRules.map((m) => m.id),
        type,
      ).toEqual([10, 11, 12, 13]);
      expect(r.matchedRules[0]?.matchedVar, type).toBe('ARGS:json.filter.ids.array_1');
    }
  });

  it('leaves other types to the raw body: no JSON arguments', () => {
    for (const type of ['text/json', 'text/plain', 'application/x-json-stream']) {
      const ids = loadRules(RULES)
        .evaluate(post('/api', type, BODY))
        .matchedRules.map((m) => m.id);
      expect(ids, type).not.toContain(13);
      expect(ids, type).not.toContain(11);
    }
  });

  it("refuses a malformed document with 400 (rule 200002), logging yajl's message", () => {
    const r = loadRules(RULES).evaluate(post('/api', 'application/json', '{"id": 1 AND 1=2}'));
    expect(r).toMatchObject({ decision: 'block', status: 400, ruleId: 200002 });
    expect(r.bodyError).toBe('JSON parsing error: lexical error: invalid char in json text.');
  });
});
