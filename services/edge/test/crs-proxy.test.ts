// The CRS 3.3.4 regression corpus through the real edge proxy (issue 16, point 5; test/crs-proxy/).
// `npm test` runs a fixed sample (every 8th test); `npm run crs:regression:proxy` runs them all
// (CRS_PROXY_ALL=1) and prints the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { OTHER_HOSTS, runCorpusThroughProxy, ZONE_HOST } from './crs-proxy/runner.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

const ALL = process.env.CRS_PROXY_ALL === '1';
let f: ProxyFixture;
const zones: Zone[] = [];

beforeAll(async () => {
  // Like go-ftw reading every line of a server's log, the runner needs an event row for every request:
  // sampling (past EDGE_EVENTS_SAMPLE_AFTER requests a second per zone) is turned off here.
  f = await startProxyFixture({
    EDGE_WAF_TIME_BUDGET_MS: '5000',
    EDGE_ORIGIN_TIMEOUT_MS: '5000',
    EDGE_EVENTS_SAMPLE_AFTER: '1000000',
    // EDGE_WAF_POOL_THRESHOLD=0 runs the corpus with every CRS evaluation on the worker pool
    ...(process.env.EDGE_WAF_POOL_THRESHOLD
      ? { EDGE_WAF_POOL_THRESHOLD: process.env.EDGE_WAF_POOL_THRESHOLD }
      : {}),
  });
  for (const host of [ZONE_HOST, ...OTHER_HOSTS]) zones.push(await f.zone(host, 'enterprise', 'complete'));
}, 180_000);
afterAll(() => f?.close());

describe('the CRS regression corpus through the edge proxy', () => {
  it(ALL ? 'passes every test not in overrides.yaml' : 'passes a fixed sample (every 8th test)', async () => {
    const report = await runCorpusThroughProxy(f, zones, ALL ? undefined : (_t, i) => i % 8 === 0);
    const failures = report.failures.map((o) => `${o.test.title}: ${o.reason} [${o.ids.join(' ')}]`);
    console.log(
      `CRS 3.3.4 regression through the edge proxy: ${report.passed}/${report.run} passed ` +
        `(${report.total} in corpus, ${report.skipped.length} skipped with reasons in crs-proxy/overrides.yaml` +
        `${ALL ? '' : ', a sample of every 8th'}), ${report.failures.length} failed`,
    );
    for (const line of failures) console.log(`FAIL ${line}`);
    expect(failures).toEqual([]);
    expect(report.run).toBeGreaterThan(ALL ? 1500 : 150);
    for (const s of report.skipped) expect(s.reason.length).toBeGreaterThan(20);
  }, 900_000);
});
