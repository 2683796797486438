// The proxy of the streaming test in a process of its own, so its resident memory is measured alone:
//   node --import tsx proxy-streaming-child.ts
// Starts the proxy fixture (its origin streams too) with a zone whose WAF runs both managed rulesets
// (OWASP CRS at PL1), prints {"proxy": "http://…"} on a line, and runs until stdin closes.
import { deployManaged, poolReady, startProxyFixture } from './proxy-fixture.ts';

// a wide WAF time budget: on a loaded machine a preempted evaluation would be refused (fail closed)
const f = await startProxyFixture({ EDGE_ORIGIN_TIMEOUT_MS: '30000', EDGE_WAF_TIME_BUDGET_MS: '5000' });
const zone = await f.zone('stream.example.com', 'enterprise', 'complete');
await deployManaged(f, zone.id);
// Warm the path so its one-off allocations are in the baseline, not in the 50 MB runs: the WAF worker
// pool's CRS engines (loaded in the background after the plan compiles; a CI run once measured that load
// as 74 MB of "growth"), and the RE2 patterns and pooled evaluation that only inputs over
// EDGE_WAF_BODY_LIMIT-sized bodies reach.
await poolReady(f, zone.id);
for (const body of ['a=1', Buffer.alloc(1024 * 1024, 'w')]) {
  const warm = await f.send('stream.example.com', '/echo/warm', {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body,
  });
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
}
process.stdout.write(`${JSON.stringify({ proxy: f.proxy.address })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  f.close().then(() => process.exit(0));
});
