import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FidelityReport, formatReport, REASONS, runFidelity } from './fidelity/harness.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Issue 18, point 1, the small fixed-seed run of `npm run edge:fidelity`: zones with random mixes of the
// previous WAF's features, upgraded with the configuration the migration proposes; every request decided
// differently must be explained by a seed row that says behaviour changes.
describe('migration fidelity (fixed seed)', { timeout: 240_000 }, () => {
  let f: ProxyFixture;
  let report: FidelityReport;
  beforeAll(async () => {
    f = await startProxyFixture();
    report = await runFidelity(f, { seed: 7, zones: 6, crsPerZone: 40 });
  }, 240_000);
  afterAll(() => f?.close());

  it('agrees on every request the seed does not say changes, and explains each difference by a seed row', () => {
    const table = formatReport(report);
    expect(report.requests, table).toBeGreaterThan(300);
    expect(
      report.differences.filter((d) => !d.reason),
      table,
    ).toEqual([]);
    for (const d of report.differences) expect(Object.keys(REASONS)).toContain(d.reason);
    expect(report.agreed / report.requests, table).toBeGreaterThan(0.9);
  });

  it('refuses a zone with URI-based overrides with the seed reason, and upgrades the others', () => {
    expect(report.refused.length).toBeGreaterThan(0);
    for (const r of report.refused) expect(r.reason).toMatch(/URI-based WAF overrides/);
    expect(report.zones - report.refused.length).toBeGreaterThan(0);
  });
});
