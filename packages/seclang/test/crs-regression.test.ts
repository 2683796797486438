// CI gate: the whole CRS 3.3.4 regression corpus at PL4, DetectionOnly. Needs the Debian CRS
// (apt-get install modsecurity-crs); without it the suite fails with that instruction.
import { describe, expect, it } from 'vitest';
import { runRegression } from './crs-regression/runner.ts';

describe('CRS 3.3.4 regression corpus', () => {
  it('passes every applicable test', () => {
    const report = runRegression();
    const failures = report.failures.map((f) => `${f.test.title}: ${f.reason} [${f.ids.join(' ')}]`);
    expect(failures).toEqual([]);
    expect(report.passed).toBe(report.applicable);
    expect(report.applicable).toBeGreaterThan(1500);
    for (const s of report.skipped) expect(s.reason.length).toBeGreaterThan(20);
  }, 120_000);
});
