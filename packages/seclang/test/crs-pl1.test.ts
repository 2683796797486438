// The Debian CRS at paranoia level 1, threshold 5, blocking: known attacks are blocked, ordinary
// traffic (forms, JSON and XML APIs, browser headers, cookies, uploads) passes with no match.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCrs, type Waf } from '../src/index.ts';
import { ATTACKS, BENIGN } from './fixtures.ts';

let waf: Waf;

beforeAll(async () => {
  waf = await loadCrs({ paranoiaLevel: 1, inboundThreshold: 5, timeBudgetMs: 5000 });
});

describe('CRS at PL1', () => {
  it.each(Object.entries(BENIGN))('lets through: %s', (_name, request) => {
    const result = waf.evaluate(request);
    expect(result.matchedRules.map((m) => `${m.id} ${m.message} ${m.data}`)).toEqual([]);
    expect(result.decision).toBe('allow');
    expect(result.anomalyScore).toBe(0);
  });

  it.each(Object.entries(ATTACKS))('blocks: %s', (_name, request) => {
    const result = waf.evaluate(request);
    expect(result.decision, JSON.stringify(result.matchedRules.map((m) => m.id))).toBe('block');
    expect(result.status).toBe(403);
    expect(result.anomalyScore).toBeGreaterThanOrEqual(5);
    expect(result.matchedRules.some((m) => m.id === 949110)).toBe(true);
  });

  it('reports each match with id, tags, message, data and severity', () => {
    const result = waf.evaluate(ATTACKS['SQLi tautology']!);
    const sqli = result.matchedRules.find((m) => m.tags.includes('attack-sqli'));
    expect(sqli).toBeDefined();
    expect(sqli!.message).toMatch(/SQL Injection/);
    expect(sqli!.data).toMatch(/ARGS:id/);
    expect(sqli!.severity).toBe('CRITICAL');
    expect(result.paranoiaLevel).toBe(1);
  });
});
