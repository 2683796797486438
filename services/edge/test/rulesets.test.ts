import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANOMALY_RULE_ID, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';

let f: EdgeFixture;
let zone: string;
const CUSTOM = 'http_request_firewall_custom';
const MANAGED = 'http_request_firewall_managed';
const entry = (phase: string) => `/zones/${zone}/rulesets/phases/${phase}/entrypoint`;

interface Rule {
  id: string;
  version: string;
  action: string;
  expression: string;
  ref: string;
  enabled: boolean;
  last_updated: string;
  action_parameters?: Record<string, unknown>;
}
interface Ruleset {
  id: string;
  version: string;
  name: string;
  kind: string;
  phase: string;
  last_updated: string;
  rules: Rule[];
}
const rs = (a: Answer) => a.body.result as Ruleset;

beforeAll(async () => {
  f = await startEdge();
  zone = f.zones.business.id;
});
afterAll(async () => {
  await f.close();
});

function expectError(a: Answer, status: number, code: number, message: string | RegExp, pointer?: string) {
  expect(a.status, a.text).toBe(status);
  expect(a.body.success).toBe(false);
  expect(a.body.result).toBeNull();
  const e = a.body.errors[0]!;
  expect(e.code).toBe(code);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
  if (pointer !== undefined) expect(e.source?.pointer).toBe(pointer);
}

describe('entry points', () => {
  it('GET of a phase without an entry point is 404/10003', async () => {
    expectError(
      await call(f, 'GET', entry(CUSTOM)),
      404,
      10003,
      `could not find entrypoint ruleset in the ${CUSTOM} phase`,
    );
  });

  it('PUT creates the entry point (version 1, name default, kind zone) and replaces it (version 2)', async () => {
    const first = rs(
      await call(f, 'PUT', entry(CUSTOM), {
        body: { rules: [{ action: 'block', expression: 'http.request.uri.path eq "/a"' }] },
      }),
    );
    expect(first).toMatchObject({ name: 'default', kind: 'zone', phase: CUSTOM, version: '1' });
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.rules[0]).toMatchObject({
      version: '1',
      enabled: true,
      description: '',
      ref: first.rules[0]!.id,
    });
    f.clock.advance(1000);
    const second = rs(await call(f, 'PUT', entry(CUSTOM), { body: { rules: [] } }));
    expect(second.id).toBe(first.id);
    expect(second.version).toBe('2');
    expect(second.rules).toEqual([]);
    expect(rs(await call(f, 'GET', entry(CUSTOM))).version).toBe('2');
  });

  it('POST of a second zone ruleset for a phase is 400/20217 on /kind', async () => {
    const a = await call(f, 'POST', `/zones/${zone}/rulesets`, {
      body: { name: 'x', kind: 'zone', phase: CUSTOM, rules: [] },
    });
    expectError(
      a,
      400,
      20217,
      `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${CUSTOM}`,
      '/kind',
    );
  });

  it('the entry point PUT refuses kind and phase fields (strict decoding)', async () => {
    const a = await call(f, 'PUT', entry(CUSTOM), { body: { rules: [], kind: 'zone' } });
    expectError(a, 400, 10400, 'invalid JSON: unknown field "kind"', '/kind');
  });

  it('lists and reads entry point versions', async () => {
    const versions = await call(f, 'GET', `${entry(CUSTOM)}/versions`);
    expect((versions.body.result as Ruleset[]).map((v) => v.version)).toEqual(['1', '2']);
    expect((versions.body.result as Ruleset[])[0]).not.toHaveProperty('rules');
    const v1 = rs(await call(f, 'GET', `${entry(CUSTOM)}/versions/1`));
    expect(v1.rules).toHaveLength(1);
    expectError(await call(f, 'GET', `${entry(CUSTOM)}/versions/9`), 404, 10003, /could not find version 9/);
  });

  it('phases other than the two firewall phases are refused with 50002, unknown names with 400', async () => {
    expectError(
      await call(f, 'PUT', entry('http_request_transform'), { body: { rules: [] } }),
      400,
      50002,
      /not entitled to use the phase http_request_transform/,
    );
    const unknown = await call(f, 'GET', entry('nope'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]!.source).toEqual({ parameter: 'ruleset_phase' });
  });
});

describe('rule ids and versions', () => {
  let id: string;
  let a: Rule;
  let b: Rule;
  it('keeps rule ids across edits, bumps a rule version only when the rule changes', async () => {
    const made = rs(
      await call(f, 'POST', `/zones/${zone}/rulesets`, {
        body: {
          name: 'managed phase',
          kind: 'zone',
          phase: MANAGED,
          rules: [
            { action: 'execute', expression: 'true', action_parameters: { id: EDGE_MANAGED_RULESET_ID } },
            { action: 'block', expression: 'http.host eq "x.test"', ref: 'my-block' },
          ],
        },
      }),
    );
    id = made.id;
    [a, b] = made.rules as [Rule, Rule];
    expect(made.version).toBe('1');
    f.clock.advance(60_000);
    // Reorder, change b only; b is matched by its ref, a by its id.
    const next = rs(
      await call(f, 'PUT', `/zones/${zone}/rulesets/${id}`, {
        body: {
          rules: [
            { action: 'block', expression: 'http.host eq "y.test"', ref: 'my-block' },
            {
              id: a.id,
              action: 'execute',
              expression: 'true',
              action_parameters: { id: EDGE_MANAGED_RULESET_ID },
            },
          ],
        },
      }),
    );
    expect(next.version).toBe('2');
    expect(next.rules.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(next.rules[0]).toMatchObject({ version: '2', ref: 'my-block' });
    expect(next.rules[0]!.last_updated).not.toBe(b.last_updated);
    expect(next.rules[1]).toMatchObject({ version: '1', last_updated: a.last_updated });
  });

  it('moving a rule does not change its version; editing it does', async () => {
    const moved = rs(
      await call(f, 'PATCH', `/zones/${zone}/rulesets/${id}/rules/${b.id}`, {
        body: { position: { after: a.id } },
      }),
    );
    expect(moved.rules.map((r) => [r.id, r.version])).toEqual([
      [a.id, '1'],
      [b.id, '2'],
    ]);
    expect(moved.version).toBe('3');
    const edited = rs(
      await call(f, 'PATCH', `/zones/${zone}/rulesets/${id}/rules/${b.id}`, {
        body: { description: 'now described' },
      }),
    );
    expect(edited.rules[1]).toMatchObject({
      id: b.id,
      version: '3',
      description: 'now described',
      expression: 'http.host eq "y.test"',
    });
  });

  it('adds rules at before/after/index positions and returns the whole ruleset', async () => {
    const top = rs(
      await call(f, 'POST', `/zones/${zone}/rulesets/${id}/rules`, {
        body: { action: 'managed_challenge', expression: 'true', position: { before: '' } },
      }),
    );
    expect(top.rules.map((r) => r.action)).toEqual(['managed_challenge', 'execute', 'block']);
    const mid = rs(
      await call(f, 'POST', `/zones/${zone}/rulesets/${id}/rules`, {
        body: { action: 'challenge', expression: 'true', position: { index: 2 } },
      }),
    );
    expect(mid.rules.map((r) => r.action)).toEqual(['managed_challenge', 'challenge', 'execute', 'block']);
    const after = rs(
      await call(f, 'POST', `/zones/${zone}/rulesets/${id}/rules`, {
        body: { action: 'js_challenge', expression: 'true', position: { after: a.id } },
      }),
    );
    expect(after.rules.map((r) => r.action)).toEqual([
      'managed_challenge',
      'challenge',
      'execute',
      'js_challenge',
      'block',
    ]);
    const end = rs(
      await call(f, 'POST', `/zones/${zone}/rulesets/${id}/rules`, {
        body: { action: 'block', expression: 'http.host eq "end"' },
      }),
    );
    expect(end.rules.at(-1)!.expression).toBe('http.host eq "end"');
    expect(end.rules.every((r) => r.version !== undefined)).toBe(true);
  });

  it('deletes a rule and returns the whole ruleset; other rules keep id and version', async () => {
    const before = rs(await call(f, 'GET', `/zones/${zone}/rulesets/${id}`));
    const gone = before.rules[0]!;
    const after = rs(await call(f, 'DELETE', `/zones/${zone}/rulesets/${id}/rules/${gone.id}`));
    expect(after.rules.map((r) => [r.id, r.version])).toEqual(
      before.rules.slice(1).map((r) => [r.id, r.version]),
    );
    expect(Number(after.version)).toBe(Number(before.version) + 1);
  });

  it('keeps every version; deletes old ones (204) but not the latest', async () => {
    const list = (await call(f, 'GET', `/zones/${zone}/rulesets/${id}/versions`)).body.result as Ruleset[];
    const latest = list.at(-1)!.version;
    const del = await call(f, 'DELETE', `/zones/${zone}/rulesets/${id}/versions/1`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(
      await call(f, 'GET', `/zones/${zone}/rulesets/${id}/versions/1`),
      404,
      10003,
      /could not find version 1/,
    );
    expectError(
      await call(f, 'DELETE', `/zones/${zone}/rulesets/${id}/versions/${latest}`),
      400,
      10400,
      /is the latest version/,
    );
    const v2 = rs(await call(f, 'GET', `/zones/${zone}/rulesets/${id}/versions/2`));
    expect(v2.rules.map((r) => r.expression)).toEqual(['http.host eq "y.test"', 'true']);
  });

  it('lists zone rulesets without rules, managed ones first, and deletes (204, then 404)', async () => {
    const list = (await call(f, 'GET', `/zones/${zone}/rulesets`)).body.result as Ruleset[];
    expect(list.slice(0, 2).map((r) => r.id)).toEqual([EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID]);
    expect(list.map((r) => r.kind)).toEqual(['managed', 'managed', 'zone', 'zone']);
    expect(list.every((r) => !('rules' in r))).toBe(true);
    const paged = await call(f, 'GET', `/zones/${zone}/rulesets?per_page=3`);
    expect((paged.body.result as unknown[]).length).toBe(3);
    const cursor = paged.body.result_info!.cursor as string;
    const rest = await call(f, 'GET', `/zones/${zone}/rulesets?per_page=3&cursor=${cursor}`);
    expect((rest.body.result as unknown[]).length).toBe(1);
    expect(rest.body.result_info!.cursor).toBeUndefined();
    expect((await call(f, 'DELETE', `/zones/${zone}/rulesets/${id}`)).status).toBe(204);
    expectError(
      await call(f, 'GET', `/zones/${zone}/rulesets/${id}`),
      404,
      10003,
      `could not find ruleset ${id} in zone business.example.com`,
    );
  });

  it('dry_run validates and answers result null without saving', async () => {
    const before = rs(await call(f, 'GET', entry(CUSTOM)));
    const dry = await call(f, 'PUT', `${entry(CUSTOM)}?dry_run=true`, {
      body: { rules: [{ action: 'block', expression: 'true' }] },
    });
    expect(dry.status).toBe(200);
    expect(dry.body.result).toBeNull();
    expect(rs(await call(f, 'GET', entry(CUSTOM)))).toEqual(before);
  });
});

describe('managed rulesets', () => {
  it('the OWASP ruleset has one rule per CRS request rule, paranoia-level categories and the anomaly rule last', async () => {
    const owasp = rs(await call(f, 'GET', `/zones/${zone}/rulesets/${OWASP_RULESET_ID}`));
    expect(owasp.kind).toBe('managed');
    const last = owasp.rules.at(-1) as Rule & { score_threshold?: number; description?: string };
    expect(last).toMatchObject({
      id: ANOMALY_RULE_ID,
      action: 'block',
      score_threshold: 40,
      description: '949110: Inbound Anomaly Score Exceeded',
    });
    const withCategories = owasp.rules as (Rule & { categories: string[]; description: string })[];
    expect(withCategories.find((r) => r.description.startsWith('942100:'))?.categories).toEqual(
      expect.arrayContaining(['paranoia-level-1', 'attack-sqli']),
    );
    for (const pl of [1, 2, 3, 4])
      expect(withCategories.some((r) => r.categories.includes(`paranoia-level-${pl}`))).toBe(true);
  });

  it('the edge managed ruleset is tagged by category and readable at account level, also by tag', async () => {
    const byTag = rs(
      await call(
        f,
        'GET',
        `/accounts/${f.accountId}/rulesets/${EDGE_MANAGED_RULESET_ID}/versions/1/by_tag/log4j`,
      ),
    );
    expect(byTag.rules.length).toBeGreaterThanOrEqual(3);
    expect(
      byTag.rules.every((r) => (r as Rule & { categories: string[] }).categories.includes('log4j')),
    ).toBe(true);
    const list = (await call(f, 'GET', `/accounts/${f.accountId}/rulesets`)).body.result as Ruleset[];
    expect(list.map((r) => r.id)).toEqual([EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID]);
  });

  it('managed rulesets are read-only', async () => {
    const put = await call(f, 'PUT', `/zones/${zone}/rulesets/${OWASP_RULESET_ID}`, { body: { rules: [] } });
    expectError(put, 403, 20227, /is a managed ruleset and cannot be modified/);
    const del = await call(f, 'DELETE', `/zones/${zone}/rulesets/${EDGE_MANAGED_RULESET_ID}`);
    expect(del.status).toBe(403);
    const add = await call(f, 'POST', `/zones/${zone}/rulesets/${EDGE_MANAGED_RULESET_ID}/rules`, {
      body: { action: 'block', expression: 'true' },
    });
    expect(add.status).toBe(403);
  });
});

describe('bad input: status, code, message and pointer; the store untouched', () => {
  const cases: [string, unknown, number, number, string | RegExp, string][] = [
    [
      'unknown rule field',
      { rules: [{ action: 'block', expression: 'true', colour: 'red' }] },
      400,
      10400,
      'invalid JSON: unknown field "colour"',
      '/rules/0/colour',
    ],
    [
      'missing expression',
      { rules: [{ action: 'block' }] },
      400,
      10400,
      'invalid JSON: missing required field "expression"',
      '/rules/0/expression',
    ],
    [
      'parse error',
      { rules: [{ action: 'block', expression: 'http.host eq 1234' }] },
      400,
      10400,
      /^'http\.host eq 1234' is not a valid value for expression because could not parse filter expression: Filter parsing error \(1:14\):\nhttp\.host eq 1234\n {13}\^\^\^\^ expected value of type Bytes, but got Int$/,
      '/rules/0/expression',
    ],
    [
      'unknown field name',
      {
        rules: [
          { action: 'block', expression: 'true' },
          { action: 'block', expression: 'http.hots eq "a"' },
        ],
      },
      400,
      10400,
      /unknown identifier/,
      '/rules/1/expression',
    ],
    [
      'action of another phase',
      { rules: [{ action: 'execute', expression: 'true', action_parameters: { id: OWASP_RULESET_ID } }] },
      400,
      10400,
      /'execute' is not a valid value for action because it is not an action of the http_request_firewall_custom phase/,
      '/rules/0/action',
    ],
    [
      'parameters on block',
      { rules: [{ action: 'block', expression: 'true', action_parameters: { id: OWASP_RULESET_ID } }] },
      400,
      10400,
      'invalid JSON: unknown field "id"',
      '/rules/0/action_parameters/id',
    ],
    [
      'parameters on challenge',
      { rules: [{ action: 'challenge', expression: 'true', action_parameters: { ruleset: 'current' } }] },
      400,
      10400,
      'invalid JSON: unknown field "ruleset"',
      '/rules/0/action_parameters/ruleset',
    ],
    [
      'skip without parameters',
      { rules: [{ action: 'skip', expression: 'true' }] },
      400,
      20113,
      'action parameters are required for the skip action',
      '/rules/0/action_parameters',
    ],
    [
      'skip with nothing to skip',
      { rules: [{ action: 'skip', expression: 'true', action_parameters: {} }] },
      400,
      10400,
      /a skip rule must say what to skip/,
      '/rules/0/action_parameters',
    ],
    [
      'skip ruleset other than current',
      { rules: [{ action: 'skip', expression: 'true', action_parameters: { ruleset: 'all' } }] },
      400,
      10400,
      /it must be one of current/,
      '/rules/0/action_parameters/ruleset',
    ],
    [
      'skip ruleset with phases',
      {
        rules: [
          {
            action: 'skip',
            expression: 'true',
            action_parameters: { ruleset: 'current', phases: [MANAGED] },
          },
        ],
      },
      400,
      10400,
      /cannot be combined with ruleset: "current"/,
      '/rules/0/action_parameters/phases',
    ],
    [
      'skip rulesets in custom phase',
      {
        rules: [{ action: 'skip', expression: 'true', action_parameters: { rulesets: [OWASP_RULESET_ID] } }],
      },
      400,
      10400,
      /only possible in the http_request_firewall_managed phase/,
      '/rules/0/action_parameters/rulesets',
    ],
    [
      'skip an earlier phase',
      {
        rules: [
          { action: 'skip', expression: 'true', action_parameters: { phases: ['http_request_transform'] } },
        ],
      },
      400,
      10400,
      /can only skip http_ratelimit, http_request_firewall_managed, http_request_sbfm/,
      '/rules/0/action_parameters/phases/0',
    ],
    [
      'skip unknown product',
      { rules: [{ action: 'skip', expression: 'true', action_parameters: { products: ['WAF'] } }] },
      400,
      10400,
      /it must be one of zoneLockdown/,
      '/rules/0/action_parameters/products/0',
    ],
    [
      'duplicate product',
      { rules: [{ action: 'skip', expression: 'true', action_parameters: { products: ['waf', 'waf'] } }] },
      400,
      10400,
      /listed twice/,
      '/rules/0/action_parameters/products/1',
    ],
    [
      'logging on block',
      { rules: [{ action: 'block', expression: 'true', logging: { enabled: false } }] },
      400,
      10400,
      /logging can only be configured on skip rules/,
      '/rules/0/logging',
    ],
    [
      'block response status',
      {
        rules: [
          {
            action: 'block',
            expression: 'true',
            action_parameters: { response: { status_code: 302, content: 'x', content_type: 'text/plain' } },
          },
        ],
      },
      400,
      10400,
      /it must be from 400 to 499/,
      '/rules/0/action_parameters/response/status_code',
    ],
    [
      'log below Enterprise',
      { rules: [{ action: 'log', expression: 'true' }] },
      400,
      50002,
      /not entitled to use the log action: it needs the Enterprise plan, and this zone is on Business/,
      '/rules/0/action',
    ],
    [
      'unknown rule id',
      { rules: [{ id: 'f'.repeat(32), action: 'block', expression: 'true' }] },
      400,
      10400,
      /this ruleset has no rule with this id/,
      '/rules/0/id',
    ],
    [
      'malformed rule id',
      { rules: [{ id: 'xyz', action: 'block', expression: 'true' }] },
      400,
      10400,
      /32-character hex rule id/,
      '/rules/0/id',
    ],
    [
      'duplicate refs',
      {
        rules: [
          { action: 'block', expression: 'true', ref: 'a' },
          { action: 'block', expression: 'true', ref: 'a' },
        ],
      },
      400,
      10400,
      /another rule of this ruleset has this ref/,
      '/rules/1/ref',
    ],
    ['rules not an array', { rules: {} }, 400, 10400, /it must be an array, not an object/, '/rules'],
    [
      'enabled not a boolean',
      { rules: [{ action: 'block', expression: 'true', enabled: 'yes' }] },
      400,
      10400,
      /it must be true or false/,
      '/rules/0/enabled',
    ],
  ];
  for (const [what, body, status, code, message, pointer] of cases) {
    it(`custom phase: ${what}`, async () => {
      const before = await call(f, 'GET', entry(CUSTOM));
      expectError(await call(f, 'PUT', entry(CUSTOM), { body }), status, code, message, pointer);
      expect((await call(f, 'GET', entry(CUSTOM))).body).toEqual(before.body);
    });
  }

  const execute = (params: unknown, extra: Record<string, unknown> = {}) => ({
    rules: [{ action: 'execute', expression: 'true', action_parameters: params, ...extra }],
  });
  const managedCases: [string, unknown, number, number, string | RegExp, string][] = [
    [
      'execute without parameters',
      { rules: [{ action: 'execute', expression: 'true' }] },
      400,
      20113,
      'action parameters are required for the execute action',
      '/rules/0/action_parameters',
    ],
    [
      'execute unknown ruleset',
      execute({ id: 'a'.repeat(32) }),
      400,
      10400,
      /no managed ruleset with this id is available/,
      '/rules/0/action_parameters/id',
    ],
    [
      'execute malformed id',
      execute({ id: 'OWASP' }),
      400,
      10400,
      /a 32-character lowercase hex id/,
      '/rules/0/action_parameters/id',
    ],
    [
      'execute other version',
      execute({ id: OWASP_RULESET_ID, version: '7' }),
      400,
      10400,
      /has version 1 only/,
      '/rules/0/action_parameters/version',
    ],
    [
      'empty overrides',
      execute({ id: OWASP_RULESET_ID, overrides: {} }),
      400,
      10400,
      /overrides must set at least one of/,
      '/rules/0/action_parameters/overrides',
    ],
    [
      'override action skip',
      execute({ id: OWASP_RULESET_ID, overrides: { action: 'skip' } }),
      400,
      10400,
      /it must be one of block, challenge/,
      '/rules/0/action_parameters/overrides/action',
    ],
    [
      'sensitivity outside DDoS',
      execute({ id: OWASP_RULESET_ID, overrides: { sensitivity_level: 'low' } }),
      400,
      10400,
      /only applicable for DDoS phases/,
      '/rules/0/action_parameters/overrides/sensitivity_level',
    ],
    [
      'unknown category',
      execute({
        id: OWASP_RULESET_ID,
        overrides: { categories: [{ category: 'paranoia-level-9', enabled: false }] },
      }),
      400,
      10400,
      /no rule of Cairn OWASP Core Ruleset has this category/,
      '/rules/0/action_parameters/overrides/categories/0/category',
    ],
    [
      'category override that changes nothing',
      execute({ id: OWASP_RULESET_ID, overrides: { categories: [{ category: 'paranoia-level-2' }] } }),
      400,
      10400,
      /an override must change something/,
      '/rules/0/action_parameters/overrides/categories/0',
    ],
    [
      'category twice',
      execute({
        id: OWASP_RULESET_ID,
        overrides: {
          categories: [
            { category: 'paranoia-level-2', enabled: false },
            { category: 'paranoia-level-2', enabled: true },
          ],
        },
      }),
      400,
      10400,
      /overridden twice/,
      '/rules/0/action_parameters/overrides/categories/1/category',
    ],
    [
      'unknown rule override',
      execute({ id: OWASP_RULESET_ID, overrides: { rules: [{ id: 'b'.repeat(32), enabled: false }] } }),
      400,
      10400,
      /has no rule with this id/,
      '/rules/0/action_parameters/overrides/rules/0/id',
    ],
    [
      'score threshold on a plain rule',
      execute({
        id: EDGE_MANAGED_RULESET_ID,
        overrides: { rules: [{ id: '23ee7cebe6e8443e99ecf932ab579455', score_threshold: 25 }] },
      }),
      400,
      10400,
      /has no score threshold/,
      '/rules/0/action_parameters/overrides/rules/0/score_threshold',
    ],
    [
      'score threshold not an integer',
      execute({
        id: OWASP_RULESET_ID,
        overrides: { rules: [{ id: ANOMALY_RULE_ID, score_threshold: 'high' }] },
      }),
      400,
      10400,
      /it must be an integer/,
      '/rules/0/action_parameters/overrides/rules/0/score_threshold',
    ],
    [
      'skip products in managed phase',
      { rules: [{ action: 'skip', expression: 'true', action_parameters: { products: ['waf'] } }] },
      400,
      10400,
      /only available to skip rules of the http_request_firewall_custom phase/,
      '/rules/0/action_parameters/products',
    ],
    [
      'skip rules of unknown rule',
      {
        rules: [
          {
            action: 'skip',
            expression: 'true',
            action_parameters: { rules: { [OWASP_RULESET_ID]: ['c'.repeat(32)] } },
          },
        ],
      },
      400,
      10400,
      /has no rule with this id/,
      `/rules/0/action_parameters/rules/${OWASP_RULESET_ID}/0`,
    ],
    [
      'skip rules map with bad key',
      {
        rules: [
          { action: 'skip', expression: 'true', action_parameters: { rules: { owasp: ['c'.repeat(32)] } } },
        ],
      },
      400,
      10400,
      /32-character hex ruleset id/,
      '/rules/0/action_parameters/rules/owasp',
    ],
    [
      'skip rulesets and phases',
      {
        rules: [
          {
            action: 'skip',
            expression: 'true',
            action_parameters: { rulesets: [OWASP_RULESET_ID], phases: ['http_request_sbfm'] },
          },
        ],
      },
      400,
      10400,
      /cannot be combined with rulesets/,
      '/rules/0/action_parameters/phases',
    ],
  ];
  for (const [what, body, status, code, message, pointer] of managedCases) {
    it(`managed phase: ${what}`, async () => {
      const before = await call(f, 'GET', entry(MANAGED));
      expectError(await call(f, 'PUT', entry(MANAGED), { body }), status, code, message, pointer);
      expect((await call(f, 'GET', entry(MANAGED))).body).toEqual(before.body);
    });
  }

  it('valid OWASP configuration: paranoia levels, threshold 60/40/25 and action on the anomaly rule', async () => {
    for (const threshold of [60, 40, 25]) {
      const a = await call(f, 'PUT', entry(MANAGED), {
        body: execute({
          id: OWASP_RULESET_ID,
          overrides: {
            categories: [
              { category: 'paranoia-level-3', enabled: false },
              { category: 'paranoia-level-4', enabled: false },
            ],
            rules: [{ id: ANOMALY_RULE_ID, score_threshold: threshold, action: 'log' }],
          },
        }),
      });
      expect(a.status, a.text).toBe(200);
    }
  });

  it('regular expressions need Business: a Pro zone gets 50002', async () => {
    const pro = `/zones/${f.zones.pro.id}/rulesets/phases/${CUSTOM}/entrypoint`;
    const a = await call(f, 'PUT', pro, {
      body: { rules: [{ action: 'block', expression: 'http.host matches "^a"' }] },
    });
    expectError(a, 400, 50002, /regular expressions need the Business plan/, '/rules/0/expression');
  });

  it('a Free zone cannot execute the managed rulesets and has at most 5 custom rules', async () => {
    const free = (phase: string) => `/zones/${f.zones.free.id}/rulesets/phases/${phase}/entrypoint`;
    expectError(
      await call(f, 'PUT', free(MANAGED), { body: execute({ id: OWASP_RULESET_ID }) }),
      400,
      50002,
      /needs the Pro plan or above, and this zone is on Free/,
      '/rules/0/action_parameters/id',
    );
    const six = Array.from({ length: 6 }, () => ({ action: 'block', expression: 'true' }));
    expectError(
      await call(f, 'PUT', free(CUSTOM), { body: { rules: six } }),
      400,
      50002,
      /more than 5 custom rules on the Free plan/,
      '/rules',
    );
  });

  it('rule endpoints: positions, ids and empty patches', async () => {
    const made = rs(
      await call(f, 'PUT', entry(CUSTOM), { body: { rules: [{ action: 'block', expression: 'true' }] } }),
    );
    const base = `/zones/${zone}/rulesets/${made.id}/rules`;
    const rule = made.rules[0]!.id;
    expectError(
      await call(f, 'POST', base, {
        body: { action: 'block', expression: 'true', position: { before: 'd'.repeat(32) } },
      }),
      400,
      10400,
      /this ruleset has no rule with this id/,
      '/position/before',
    );
    expectError(
      await call(f, 'POST', base, {
        body: { action: 'block', expression: 'true', position: { before: '', after: '' } },
      }),
      400,
      10400,
      /exactly one of before, after or index/,
      '/position',
    );
    expectError(
      await call(f, 'POST', base, { body: { action: 'block', expression: 'true', position: { index: 3 } } }),
      400,
      10400,
      /index must be from 1 to 2/,
      '/position/index',
    );
    expectError(
      await call(f, 'POST', base, { body: { action: 'block', expression: 'true', position: { index: 0 } } }),
      400,
      10400,
      /it must be from 1 to 100000/,
      '/position/index',
    );
    expectError(
      await call(f, 'PATCH', `${base}/${rule}`, { body: { position: { before: rule } } }),
      400,
      10400,
      /relative to itself/,
      '/position/before',
    );
    expectError(await call(f, 'PATCH', `${base}/${rule}`, { body: {} }), 400, 10400, /nothing to change/);
    expectError(
      await call(f, 'PATCH', `${base}/${'e'.repeat(32)}`, { body: { enabled: false } }),
      404,
      10003,
      /could not find rule e{32}/,
    );
    expectError(
      await call(f, 'PATCH', `${base}/${rule}`, { body: { expression: 'http.host eq' } }),
      400,
      10400,
      /could not parse filter expression/,
      '/expression',
    );
    const unchanged = rs(await call(f, 'GET', entry(CUSTOM)));
    expect(unchanged.version).toBe(made.version);
  });

  it('malformed ids in paths are 400 naming the parameter', async () => {
    const a = await call(f, 'GET', `/zones/${zone}/rulesets/not-an-id`);
    expect(a.status).toBe(400);
    expect(a.body.errors[0]).toMatchObject({ code: 10400, source: { parameter: 'ruleset_id' } });
    const z = await call(f, 'GET', '/zones/nope/rulesets');
    expect(z.status).toBe(400);
    expect(z.body.errors.map((e) => e.code)).toEqual([7003, 7000]);
  });
});

describe('concurrent writers', () => {
  it('parallel entry point writes each get their own version; parallel creates give one ruleset and 20217s', async () => {
    const z = f.zones.pro.id;
    const put = (i: number) =>
      call(f, 'PUT', `/zones/${z}/rulesets/phases/${CUSTOM}/entrypoint`, {
        body: { rules: [{ action: 'block', expression: `http.host eq "h${i}.example"` }] },
      });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(put));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => rs(a).id)).size).toBe(1);
    expect(answers.map((a) => Number(rs(a).version)).sort()).toEqual([1, 2, 3, 4, 5]);
    const create = () =>
      call(f, 'POST', `/zones/${z}/rulesets`, {
        body: { name: 'm', kind: 'zone', phase: MANAGED, rules: [] },
      });
    const creates = await Promise.all([create(), create(), create()]);
    expect(creates.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const a of creates.filter((x) => x.status === 400)) expect(a.body.errors[0]!.code).toBe(20217);
  });
});
