// Runs the CRS regression corpus against the engine at paranoia level 4 in DetectionOnly mode,
// with the test-suite settings upstream uses, and checks the logged rule ids of every test.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadCrsSync, type Waf } from '../../src/index.ts';
import { type FtwTest, loadCorpus } from './ftw.ts';

const here = dirname(fileURLToPath(import.meta.url));

export const DEFAULT_CORPUS_DIR = resolve(here, '../../testdata/crs-regression-v3.3.4');

/** The corpus folder: `CRS_REGRESSION_DIR` when set, else the copy in testdata/. */
export function corpusDir(): string {
  return process.env.CRS_REGRESSION_DIR ?? DEFAULT_CORPUS_DIR;
}

export interface Outcome {
  test: FtwTest;
  passed: boolean;
  ids: number[];
  reason?: string;
}

export interface RegressionReport {
  total: number;
  skipped: Array<{ title: string; reason: string }>;
  applicable: number;
  passed: number;
  failures: Outcome[];
}

interface OverridesFile {
  skip: Array<{ tests: string[]; reason: string }>;
}

/** The tests an overrides file (`skip: [{tests, reason}]`) skips, with their reasons; by default this runner's. */
export function loadSkips(file = join(here, 'overrides.yaml')): Map<string, string> {
  const doc = parse(readFileSync(file, 'utf8')) as OverridesFile;
  const skips = new Map<string, string>();
  for (const entry of doc.skip ?? []) for (const t of entry.tests) skips.set(t, entry.reason);
  return skips;
}

/** The engine configured as the CRS 3.3 test suite expects. */
export function regressionWaf(): Waf {
  return loadCrsSync({
    paranoiaLevel: 4,
    detectionOnly: true,
    timeBudgetMs: 2000,
    setupVars: {
      crs_validate_utf8_encoding: 1,
      arg_name_length: 100,
      arg_length: 400,
      combined_file_sizes: 65535,
    },
    overrides: { disabledRules: [910000] },
  });
}

export function runTest(waf: Waf, test: FtwTest): Outcome {
  let ids: number[];
  try {
    ids = waf.evaluate(test.request).matchedRules.map((m) => m.id);
  } catch (err) {
    return { test, passed: false, ids: [], reason: `engine error: ${(err as Error).stack}` };
  }
  const reasons: string[] = [];
  if (test.logContains !== undefined && !ids.includes(test.logContains))
    reasons.push(`expected ${test.logContains}`);
  if (test.noLogContains !== undefined && ids.includes(test.noLogContains))
    reasons.push(`unexpected ${test.noLogContains}`);
  if (test.logContains === undefined && test.noLogContains === undefined)
    reasons.push('no rule-id assertion to check');
  return {
    test,
    passed: reasons.length === 0,
    ids,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  };
}

export function runRegression(dir = corpusDir()): RegressionReport {
  const tests = loadCorpus(dir);
  const skips = loadSkips();
  const waf = regressionWaf();
  const report: RegressionReport = {
    total: tests.length,
    skipped: [],
    applicable: 0,
    passed: 0,
    failures: [],
  };
  for (const test of tests) {
    const skip = skips.get(test.title);
    if (skip !== undefined) {
      report.skipped.push({ title: test.title, reason: skip });
      continue;
    }
    report.applicable++;
    const outcome = runTest(waf, test);
    if (outcome.passed) report.passed++;
    else report.failures.push(outcome);
  }
  return report;
}
